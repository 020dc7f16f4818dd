import { useState } from 'react';
import { errorMessages } from '../../local/http-errors';

/**
 * A form's submission: busy while the action runs, and the failure in the words the server (or the
 * network) gave. `onError` sees the error first, e.g. to put a 400's messages beside their fields.
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (action: () => Promise<void>, onError?: (error: unknown) => void) => {
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (error) {
      onError?.(error);
      setFailure(errorMessages(error).join(' '));
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, setFailure, run };
}
