import { DEFAULT_FAILURE_TEXT, messagesFromErrorBody } from '../domain/error-texts';

// Reading a failed call of the HTTP client (http.ts) without loading axios: the sign-in page shows the
// server's words and field errors while the client itself loads only when the person submits.

export const OFFLINE_MESSAGE =
  'You are offline. This needs a connection; please try again when you are back online.';

/** What axios rejects with (its AxiosError), recognised by the flag axios sets on it, as axios.isAxiosError does. */
type HttpError = {
  isAxiosError: true;
  code?: string;
  response?: { status: number; data: unknown };
};

function isHttpError(error: unknown): error is HttpError {
  return (
    typeof error === 'object' && error !== null && (error as { isAxiosError?: unknown }).isAxiosError === true
  );
}

/** The texts to show for a failed call: the server's words, or why nothing came back. */
export function errorMessages(error: unknown): string[] {
  if (isHttpError(error)) {
    if (error.response) return messagesFromErrorBody(error.response.data);
    if (typeof navigator !== 'undefined' && !navigator.onLine) return [OFFLINE_MESSAGE];
    if (error.code === 'ECONNABORTED') return ['The server took too long to answer. Please try again.'];
    return ['We could not reach Kincare. Check your connection and try again.'];
  }
  return [DEFAULT_FAILURE_TEXT];
}

/** The per-field messages of a 400 answer, keyed by field name. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!isHttpError(error) || error.response?.status !== 400) return {};
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
  return isHttpError(error) ? error.response?.status : undefined;
}
