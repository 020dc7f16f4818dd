import { useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { hasUserDb, unsentChangeCount, userDb } from '../../local/db';
import { syncNow } from '../../local/sync-trigger';
import { retryConditionOf } from '../../domain/refusals';
import { Button } from '../ui/button';
import { DialogFrame } from '../ui/confirm-dialog';
import { refusedNote, whyNotSent } from './sync-status-texts';

// Signing out deletes the replica, and with it every change the server has not taken. With such changes
// on the device, Logout asks first: send them (and sign out once nothing is left), discard them, or stay.

type Props = { onClose: () => void; onSignOut: () => Promise<void> };
/** Unsent changes: all of them, those the server refused, and of those the ones that can be sent again. */
type Unsent = { total: number; refused: number; retryable: number };

const changes = (count: number) => `${count} ${count === 1 ? 'change' : 'changes'}`;

async function unsentNow(): Promise<Unsent | null> {
  if (!hasUserDb()) return null;
  const db = userDb();
  const [total, refused] = await Promise.all([
    unsentChangeCount(db),
    db.outbox.where('status').equals('failed').toArray(),
  ]);
  const retryable = refused.filter((entry) => retryConditionOf(entry.refusal) !== null).length;
  return { total, refused: refused.length, retryable };
}

export function UnsentChangesDialog({ onClose, onSignOut }: Props) {
  const unsent = useLiveQuery(unsentNow, []);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Each choice bumps this, so a send that ends after the person cancelled or discarded does nothing.
  const choice = useRef(0);
  const total = unsent?.total ?? 0;

  const sendFirst = async () => {
    const mine = ++choice.current;
    setProblem(null);
    setSending(true);
    try {
      const result = navigator.onLine ? await syncNow() : undefined;
      const left = await unsentNow();
      if (mine !== choice.current || !left) return;
      if (left.total === 0) await onSignOut();
      else setProblem(whyNotSent({ online: navigator.onLine, problem: result?.problem, ...left }));
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
      {unsent && unsent.refused > 0 ? (
        <p className="mt-2 text-small text-muted">{refusedNote(unsent)}</p>
      ) : null}
      {problem ? (
        <p role="alert" className="mt-4 rounded-control bg-danger-soft p-3 text-small text-danger-strong">
          {problem}
        </p>
      ) : null}
    </DialogFrame>
  );
}
