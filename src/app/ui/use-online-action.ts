import { useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessages, OFFLINE_MESSAGE } from '../../local/http-errors';
import { useOnline } from './use-online';

/**
 * An action that needs the server (an invitation, an answer, a change of access): offline it says so at
 * once instead of trying; otherwise it shows the server's words as a toast, or the failure inline.
 * `pending` names the action running now (e.g. the row's id), so only that button shows it is busy.
 */
export function useOnlineAction() {
  const [pending, setPending] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const online = useOnline();
  /** Before asking for a confirmation: true when online; offline it says so and answers false. */
  const canStart = (): boolean => {
    setFailure(navigator.onLine ? null : OFFLINE_MESSAGE);
    return navigator.onLine;
  };
  const run = async (key: string, action: () => Promise<string>): Promise<boolean> => {
    if (!canStart()) return false;
    setPending(key);
    try {
      toast.success(await action());
      return true;
    } catch (error) {
      setFailure(errorMessages(error).join(' '));
      return false;
    } finally {
      setPending(null);
    }
  };
  // "You are offline" is about the moment it was said: once the connection is back it no longer shows.
  const shownFailure = online && failure === OFFLINE_MESSAGE ? null : failure;
  return { pending, failure: shownFailure, canStart, run };
}
