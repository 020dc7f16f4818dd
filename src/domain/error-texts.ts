// The error texts (src/local/README.md) and how they are read from an error body, without Zod: the app's
// entry (which shows 'Unauthorized ') and the HTTP client need them before any schema is loaded.

export const DEFAULT_FAILURE_TEXT = 'Something went wrong';
export const UNAUTHORIZED_TOAST = 'Unauthorized ';
/**
 * The code of the 403 a write gets from an account that has not accepted the beta policy: the device
 * keeps such a change queued until the policy is accepted (src/local/README.md).
 */
export const BETA_POLICY_NOT_ACCEPTED = 'BETA_POLICY_NOT_ACCEPTED';

/**
 * The texts to show for an error body: its message (or error); for a list, each entry's
 * msg; the nested data.error too. Falls back to 'Something went wrong'.
 */
export function messagesFromErrorBody(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [DEFAULT_FAILURE_TEXT];
  const record = body as Record<string, unknown>;
  const list = Array.isArray(record.errors)
    ? record.errors
    : Array.isArray(record.message)
      ? record.message
      : null;
  if (list) {
    const texts = list
      .map((entry: unknown) =>
        typeof entry === 'object' && entry !== null && typeof (entry as { msg?: unknown }).msg === 'string'
          ? (entry as { msg: string }).msg
          : typeof entry === 'string'
            ? entry
            : null,
      )
      .filter((text): text is string => Boolean(text));
    const unique = [...new Set(texts)];
    if (unique.length > 0) return unique;
  }
  for (const candidate of [record.message, record.error]) {
    if (typeof candidate === 'string' && candidate.trim()) return [candidate];
  }
  const data = record.data;
  if (typeof data === 'object' && data !== null) {
    const nested = (data as Record<string, unknown>).error;
    if (typeof nested === 'string' && nested.trim()) return [nested];
  }
  return [DEFAULT_FAILURE_TEXT];
}
