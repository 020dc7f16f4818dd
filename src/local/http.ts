import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import { errorMessages } from './http-errors';
import { endSession, readSession, userIdFromToken } from './session';
import { httpEvents } from './http-events';

// The only module of the client that talks to the network. The token is attached at send time (never
// frozen into a request), and the error rules (README.md beside this file) live here, in one place: the app
// registers what to do (toast, navigate) through setHttpEvents.

// Its error helpers live in http-errors.ts (no axios there, so a screen can read an error without loading
// the client).

export const http = axios.create({ baseURL: '/api', timeout: 30_000 });

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Don't report failures through onError: the caller shows them itself (e.g. inline on a form). */
    quiet?: boolean;
    /** The call ends the session itself (logout): a 401 means it had already ended, nothing more to do. */
    endsSession?: boolean;
    /**
     * Sent without the signed-in person's token: a call that is not theirs (a share link's address,
     * which anyone holding the link may ask). Its 401 is then the call's own answer, not an ended session.
     */
    anonymous?: boolean;
  }
}

http.interceptors.request.use((config) => {
  const session = readSession();
  if (session && !config.anonymous && !config.headers.has('Authorization'))
    config.headers.set('Authorization', `Bearer ${session.token}`);
  return config;
});

http.interceptors.response.use(undefined, async (error: unknown) => {
  if (error instanceof AxiosError) {
    const sentToken = bearerToken(error.config?.headers?.Authorization);
    if (error.response?.status === 401 && sentToken) {
      // The caller's promise settles only once the device has forgotten the person, so nothing it does
      // next can read or write what the ended session left.
      if (!error.config?.endsSession && (await endSession(sentToken)))
        httpEvents().onUnauthorized({ unsentChanges: await unsentChangesKept(sentToken) });
    } else if (!error.config?.quiet) {
      httpEvents().onError(errorMessages(error));
    }
  }
  return Promise.reject(error);
});

async function unsentChangesKept(endedToken: string): Promise<number> {
  const userId = userIdFromToken(endedToken);
  if (!userId) return 0;
  // Loaded here, not up front: the sign-in page's calls need no replica (Dexie).
  const { unsentChangesKeptFor } = await import('./db');
  return unsentChangesKeptFor(userId);
}

function bearerToken(header: unknown): string | null {
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
}

export type RequestOptions = Pick<AxiosRequestConfig, 'quiet' | 'signal'>;
