import { useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { hasUserDb, unsentChangeCount, userDb } from '../../local/db';
import { syncNow } from '../../local/sync-trigger';
import type { SyncResult } from '../../local/sync-engine';
import { Button } from '../ui/button';
import { DialogFrame } from '../ui/confirm-dialog';

// Signing out deletes the replica, and with it every change the server has not taken. With such changes
// on the device, Logout asks first: send them (and sign out once nothing is left), discard them, or stay.

type Props = { onClose: () => void; onSignOut: () => Promise<void> };
type Unsent = { total: number; refused: number };

const changes = (count: number) => `${count} ${count === 1 ? 'change' : 'changes'}`;

async function unsentNow(): Promise<Unsent | null> {
  if (!hasUserDb()) return null;
  const db = userDb();
  const [total, refused] = await Promise.all([
    unsentChangeCount(db),
    db.outbox.where('status').equals('failed').count(),
  ]);
  return { total, refused };
}

/** Why a sync that was asked to send everything left changes behind, in the person's words. */
function whyNotSent(result: SyncResult | undefined, left: Unsent): string {
  if (!navigator.onLine || result?.problem === 'offline')
    return 'You are offline, so your changes could not be sent. Connect to the internet and try again, or discard them.';
  if (result?.problem === 'signed-out') return 'Your session has ended. Sign in again to send your changes.';
  if (result?.problem === 'policy-not-accepted')
    return 'Your changes are sent once you accept the Beta User Policy. Cancel and accept it, or discard them.';
  if (left.refused === left.total)
    return `The server refused ${left.total === 1 ? 'this change' : 'these changes'}, so sending again will not help. Cancel and open the sync status to see what you typed, or discard ${left.total === 1 ? 'it' : 'them'}.`;
  return 'Your changes could not be sent: the server did not take them just now. Try again in a moment, or discard them.';
}

export function UnsentChangesDialog({ onClose, onSignOut }: Props) {
  const unsent = useLiveQuery(unsentNow, []);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Each choice bumps this, so a send that ends after the person cancelled or discarded does nothing.
  const choice = useRef(0);
  const total = unsent?.total ?? 0;
  const refused = unsent?.refused ?? 0;

  const sendFirst = async () => {
    const mine = ++choice.current;
    setProblem(null);
    setSending(true);
    try {
      const result = navigator.onLine ? await syncNow() : undefined;
      const left = await unsentNow();
      if (mine !== choice.current || !left) return;
      if (left.total === 0) await onSignOut();
      else setProblem(whyNotSent(result, left));
    } finally {
      if (mine === choice.current) setSending(false);
    }
  };
  const discard = () => {
    choice.current++;
    void onSignOut();
  };
  const cancel = () => {
    choice.current++;
    onClose();
  };

  return (
    <DialogFrame
      open
      title="Unsent changes"
      message={
        total === 0
          ? 'All your changes have been sent.'
          : `You have ${changes(total)} that ${total === 1 ? 'has' : 'have'} not been sent yet. Signing out deletes ${total === 1 ? 'it' : 'them'} from this device.`
      }
      onClose={cancel}
      actions={
        <>
          <Button variant="secondary" onClick={cancel}>
            Cancel
          </Button>
          <Button variant="danger" onClick={discard}>
            Discard and sign out
          </Button>
          <Button autoFocus onClick={() => void sendFirst()} disabled={sending}>
            {sending ? 'Sending...' : total === 0 ? 'Sign out' : 'Send them first'}
          </Button>
        </>
      }
    >
      {refused > 0 ? (
        <p className="mt-2 text-small text-muted">
          {refused === total
            ? `${total === 1 ? 'It was' : 'They were'}`
            : `${refused} of them ${refused === 1 ? 'was' : 'were'}`}{' '}
          refused by the server: the sync status shows what you typed.
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="mt-4 rounded-control bg-danger-soft p-3 text-small text-danger-strong">
          {problem}
        </p>
      ) : null}
    </DialogFrame>
  );
}
