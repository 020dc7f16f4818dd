import type { z } from 'zod';
import { pageOf } from '../domain/directory';
import { errorMessages, fieldErrors, statusOf } from './http-errors';

// Searching the provider directory (GET /api/doctors, GET /api/pharmacies): the one part of the doctors
// and pharmacies screens that needs the server. It answers what it found, or says plainly that it needs a
// connection, or the server's words; it never throws for a failed call.

export type DirectorySearchPage<Item> = {
  items: Item[];
  page: number;
  totalPages: number;
  totalCount: number;
};

/** What a search came to: a page, no connection, or the server's (or network's) words. */
export type DirectorySearchResult<Item> =
  | { kind: 'found'; result: DirectorySearchPage<Item> }
  | { kind: 'offline'; message: string }
  | { kind: 'failed'; message: string; fieldErrors: Record<string, string> };

/** Reads `navigator.onLine` unless told (tests). */
export type SearchOptions = { online?: () => boolean; signal?: AbortSignal };

/**
 * A page of `path`'s search. Offline before trying, or when the call could not reach the server while
 * the browser says it is offline, answers `offline` with `offlineMessage`; anything else that fails
 * answers `failed` with the words to show, per field where the server named one.
 */
export async function searchDirectory<Item extends z.ZodType>(
  path: '/doctors' | '/pharmacies',
  item: Item,
  query: Record<string, unknown>,
  offlineMessage: string,
  options: SearchOptions = {},
): Promise<DirectorySearchResult<z.infer<Item>>> {
  const online = options.online ?? (() => navigator.onLine);
  const offline = { kind: 'offline', message: offlineMessage } as const;
  if (!online()) return offline;
  // The HTTP client (axios) loads with the first search, not with the screen.
  const { http } = await import('./http');
  try {
    const params = Object.fromEntries(
      Object.entries(query).filter(([, value]) => value !== undefined && value !== ''),
    );
    const response = await http.get(path, { params, quiet: true, signal: options.signal });
    const answer = pageOf(item).parse(response.data);
    return {
      kind: 'found',
      result: {
        items: answer.data,
        page: answer.page,
        totalPages: answer.totalPages,
        totalCount: answer.totalCount,
      },
    };
  } catch (error) {
    if (statusOf(error) === undefined && !online()) return offline;
    return { kind: 'failed', message: errorMessages(error).join(' '), fieldErrors: fieldErrors(error) };
  }
}
