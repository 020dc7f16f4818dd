import axios, { type AxiosAdapter } from 'axios';

// How the sync engine reaches the server: one request, answered with its status and body whatever the
// status, or a thrown TransportError when nothing came back (offline, refused, timed out). The token is
// fetched for each request at send time, never frozen into a queued one. With no token to send, nothing is
// sent: the request is answered 401 here, as the server would answer it.

export type TransportRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  /** A file sent as a multipart form instead of a JSON body. */
  file?: { field: string; blob: Blob; filename: string };
  idempotencyKey?: string;
};
export type TransportResponse = { status: number; data: unknown };
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

export class TransportError extends Error {}

/** The answer to a request that had no token to go with (nobody, or somebody else, is signed in). */
const NOT_SENT: TransportResponse = {
  status: 401,
  data: { message: 'Not sent: the person these changes belong to is not signed in on this device.' },
};

/**
 * The token a replica's requests go with: its owner's, or none while nobody or another person is signed
 * in. A sync reads the token at each request, and another tab (or the service worker) may sign someone
 * else in meanwhile: one person's queue must never be sent, nor another person's records pulled into it,
 * under someone else's session.
 */
export function ownersToken(
  owner: string,
  session: { userId: string; token: string } | null | undefined,
): string | null {
  return session?.userId === owner ? session.token : null;
}

export function createTransport(options: {
  baseURL: string;
  getToken: () => Promise<string | null> | string | null;
  timeoutMs?: number;
  adapter?: AxiosAdapter | 'fetch' | 'xhr' | 'http';
}): Transport {
  const client = axios.create({
    baseURL: options.baseURL,
    timeout: options.timeoutMs ?? 20_000,
    validateStatus: () => true,
    ...(options.adapter ? { adapter: options.adapter } : {}),
  });
  return async (request) => {
    const token = await options.getToken();
    if (!token) return NOT_SENT;
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey;
    try {
      let data = request.body;
      if (request.file) {
        const form = new FormData();
        form.append(request.file.field, request.file.blob, request.file.filename);
        data = form;
      }
      const response = await client.request({ method: request.method, url: request.url, data, headers });
      return { status: response.status, data: response.data as unknown };
    } catch (error) {
      throw new TransportError(error instanceof Error ? error.message : 'network error');
    }
  };
}
