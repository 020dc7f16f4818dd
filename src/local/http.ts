import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import { messagesFromErrorBody, DEFAULT_FAILURE_TEXT } from '../domain/errors';
import { readSession } from './session';

// The only module of the client that talks to the network. The token is attached at send time (never
// frozen into a request), and the error rules of SPEC section 8 live here, in one place: the app
// registers what to do (toast, navigate) through setHttpEvents.

export const OFFLINE_MESSAGE =
  'You are offline. This needs a connection; please try again when you are back online.';

type HttpEvents = {
  /** A signed-in call got 401: the session is over. */
  onUnauthorized: () => void;
  /** Any other failure, with the texts to show. */
  onError: (messages: string[]) => void;
};

let events: HttpEvents = { onUnauthorized: () => {}, onError: () => {} };

export function setHttpEvents(next: HttpEvents): void {
  events = next;
}

export const http = axios.create({ baseURL: '/api', timeout: 30_000 });

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Don't report failures through onError: the caller shows them itself (e.g. inline on a form). */
    quiet?: boolean;
  }
}

http.interceptors.request.use((config) => {
  const session = readSession();
  if (session) config.headers.set('Authorization', `Bearer ${session.token}`);
  return config;
});

http.interceptors.response.use(undefined, (error: unknown) => {
  if (error instanceof AxiosError) {
    const sentToken = Boolean(error.config?.headers?.Authorization);
    if (error.response?.status === 401 && sentToken) {
      events.onUnauthorized();
    } else if (!error.config?.quiet) {
      events.onError(errorMessages(error));
    }
  }
  return Promise.reject(error);
});

/** The texts to show for a failed call: the server's words, or why nothing came back. */
export function errorMessages(error: unknown): string[] {
  if (error instanceof AxiosError) {
    if (error.response) return messagesFromErrorBody(error.response.data);
    if (typeof navigator !== 'undefined' && !navigator.onLine) return [OFFLINE_MESSAGE];
    if (error.code === 'ECONNABORTED') return ['The server took too long to answer. Please try again.'];
    return ['We could not reach Kincare. Check your connection and try again.'];
  }
  return [DEFAULT_FAILURE_TEXT];
}

/** The per-field messages of a 400 answer, keyed by field name. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof AxiosError) || error.response?.status !== 400) return {};
  const body: unknown = error.response.data;
  const list = typeof body === 'object' && body !== null ? (body as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(list)) return {};
  const result: Record<string, string> = {};
  for (const entry of list) {
    if (typeof entry === 'object' && entry !== null) {
      const { path, msg } = entry as { path?: unknown; msg?: unknown };
      if (typeof path === 'string' && typeof msg === 'string' && !(path in result)) result[path] = msg;
    }
  }
  return result;
}

export function statusOf(error: unknown): number | undefined {
  return error instanceof AxiosError ? error.response?.status : undefined;
}

export type RequestOptions = Pick<AxiosRequestConfig, 'quiet' | 'signal'>;
