import { useState } from 'react';
import { errorMessages } from '../../local/http-errors';

/** A failure in the words the server (or the network) gave. */
export const serverWords = (error: unknown): string => errorMessages(error).join(' ');

/**
 * A form's submission: busy while the action runs, and the failure in words: by default the server's (or
 * the network's); `describe` words it otherwise (a save on this device has its own, see `failureText`).
 * `onError` sees the error first, e.g. to put a 400's messages beside their fields.
 */
export function useSubmit(describe: (error: unknown) => string = serverWords) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (action: () => Promise<void>, onError?: (error: unknown) => void) => {
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (error) {
      onError?.(error);
      setFailure(describe(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, setFailure, run };
}

/**
 * What went wrong with a save, in words: the server's or the network's for a call, the write path's own
 * message (the domain's rules, the offline reading), else `fallback` (never a raw schema dump or a TypeError).
 */
export function failureText(fallback: string): (error: unknown) => string {
  return (error) => {
    if (typeof error === 'object' && error !== null && (error as { isAxiosError?: unknown }).isAxiosError)
      return serverWords(error);
    if (error instanceof Error && error.name === 'Error' && error.message) return error.message;
    return fallback;
  };
}
