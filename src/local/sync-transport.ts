import axios, { type AxiosAdapter } from 'axios';

// How the sync engine reaches the server: one request, answered with its status and body whatever the
// status, or a thrown TransportError when nothing came back (offline, refused, timed out). The token is
// fetched for each request at send time, never frozen into a queued one.

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
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
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
