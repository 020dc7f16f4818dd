import { useState } from 'react';
import { Popover, PopoverBackdrop, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { formatMoment } from '../../domain/date-display';
import { hasUserDb, userDb, type OutboxEntry } from '../../local/db';
import { LAST_SYNC_KEY } from '../../local/sync-trigger';
import { syncNow } from '../../local/sync-trigger';
import { RefreshCw } from 'lucide-react';
import { Button } from '../ui/button';
import { useOnline } from '../ui/use-online';
import { useCountAsOpenSheet } from '../ui/open-sheets';
import { useWideScreen } from '../ui/use-wide-screen';
import { describeChange, typedValuesOf, type TypedValue } from './refused-changes';

// The sync status in the header: online or offline, how many changes wait, when the last sync finished,
// 'Sync now', and the changes the server refused, each with its record, the reason, what the person had
// typed (to enter it again) and a discard action.

type RefusedChange = { entry: OutboxEntry; typed: TypedValue[] };

/** Discarding loads the outbox's code when asked: the header is on every first screen. */
async function discard(seq: number): Promise<void> {
  const { discardFailed } = await import('../../local/outbox');
  await discardFailed(userDb(), seq);
}

function useSyncFacts() {
  return useLiveQuery(async () => {
    if (!hasUserDb()) return { waiting: 0, failed: [] as RefusedChange[], lastSyncAt: null as number | null };
    const db = userDb();
    const [waiting, failed, last] = await Promise.all([
      db.outbox.where('status').equals('pending').count(),
      db.outbox.where('status').equals('failed').toArray(),
      db.syncState.get(LAST_SYNC_KEY),
    ]);
    const refused = await Promise.all(
      failed.map(async (entry) => ({ entry, typed: await typedValuesOf(db, entry) })),
    );
    return { waiting, failed: refused, lastSyncAt: typeof last?.value === 'number' ? last.value : null };
  }, []);
}

export function SyncStatus() {
  const online = useOnline();
  const facts = useSyncFacts();
  const [syncing, setSyncing] = useState(false);
  const waiting = facts?.waiting ?? 0;
  const failed = facts?.failed ?? [];
  const summary = `${online ? 'Online' : 'Offline'}${waiting > 0 ? ` · ${waiting} ${waiting === 1 ? 'change' : 'changes'} waiting` : ''}${failed.length > 0 ? ` · ${failed.length} failed` : ''}`;

  const runSync = async () => {
    setSyncing(true);
    try {
      await syncNow();
    } finally {
      setSyncing(false);
    }
  };

  const state = failed.length > 0 ? 'failed' : online ? 'online' : 'offline';
  const waitingPart = waiting > 0 ? ` · ${waiting} ${waiting === 1 ? 'change' : 'changes'} waiting` : '';
  const failedPart = failed.length > 0 ? ` · ${failed.length} failed` : '';
  const badge = waiting + failed.length;

  return (
    <Popover>
      {/* On a phone only the state shows ('Online', a count beside it); the rest is read out, and shown
          in full from 768 px. The dot is a text glyph so the status reads the same to every test and reader. */}
      <PopoverButton
        className={`flex min-h-11 items-center gap-1.5 rounded-full px-3 text-small font-semibold ring-1 ring-inset focus:outline-none focus-visible:ring-2 focus-visible:ring-focus ${STATE_CLASS[state]}`}
        aria-label={`Sync status: ${summary}`}
        data-testid="sync-status"
        data-badge={badge > 0 ? String(badge) : ''}
      >
        <span aria-hidden="true">{online ? '●' : '○'}</span>
        {online ? 'Online' : 'Offline'}
        <span className="max-md:sr-only">
          {waitingPart}
          {failedPart}
        </span>
      </PopoverButton>
      {/* On a phone: a bottom sheet over a dimmed page, within thumb reach and never off screen. From 768 px:
          a panel under the header, right-aligned and never wider than the screen. Not portalled, so it stays
          in the header's landmark and in the tab order right after the button. While it is a bottom sheet, the
          toasts stand at the top, in the band it leaves free (ui/sheet.tsx). */}
      <PopoverBackdrop className="fixed inset-0 z-40 bg-black/50 md:hidden" />
      <PopoverPanel
        data-testid="sync-status-panel"
        className="fixed inset-x-0 bottom-0 z-50 max-h-[calc(100dvh-var(--kc-toast-band))] overflow-y-auto rounded-t-sheet bg-surface px-4 pt-4 pb-[calc(1rem+env(safe-area-inset-bottom))] text-text shadow-overlay ring-1 ring-border md:absolute md:inset-x-auto md:top-full md:right-2 md:bottom-auto md:mt-1 md:max-h-[calc(100dvh-8rem)] md:w-[min(24rem,calc(100vw_-_1rem))] md:rounded-card md:p-4"
      >
        <CountAsSheetOnPhone />
        <h2 className="text-heading text-text">Sync status</h2>
        <p className="mt-2 text-small text-text">
          {online ? 'Online' : 'Offline: changes are kept on this device and sent when you are back online.'}
        </p>
        <p className="mt-1 text-small text-text">
          {waiting === 0
            ? 'All changes are sent.'
            : `${waiting} ${waiting === 1 ? 'change waits' : 'changes wait'} to be sent.`}
        </p>
        <p className="mt-1 text-small text-muted">
          Last sync: {facts?.lastSyncAt ? formatMoment(facts.lastSyncAt) : 'not yet'}
        </p>
        <Button className="mt-3 w-full" onClick={() => void runSync()} disabled={syncing || !online}>
          <RefreshCw aria-hidden="true" className={`h-5 w-5 ${syncing ? 'animate-spin' : ''}`} />
          {syncing ? 'Syncing...' : 'Sync now'}
        </Button>
        {failed.length > 0 ? (
          <div className="mt-4">
            <h3 className="text-small font-semibold text-danger-strong">Changes that could not be saved</h3>
            <ul className="mt-2 space-y-2">
              {failed.map(({ entry, typed }) => (
                <RefusedChangeItem key={entry.seq} entry={entry} typed={typed} />
              ))}
            </ul>
          </div>
        ) : null}
      </PopoverPanel>
    </Popover>
  );
}

/** Rendered inside the open panel: on a phone it is a sheet like the others (ui/open-sheets.ts). */
function CountAsSheetOnPhone() {
  useCountAsOpenSheet(!useWideScreen());
  return null;
}

const STATE_CLASS = {
  online: 'bg-success-soft text-success-strong ring-success/30',
  offline: 'bg-warning-soft text-warning-strong ring-warning/30',
  failed: 'bg-danger-soft text-danger-strong ring-danger/30',
} as const;

function RefusedChangeItem({ entry, typed }: RefusedChange) {
  const name = describeChange(entry);
  return (
    <li className="rounded-control bg-danger-soft p-3 text-small text-danger-strong">
      <p className="font-semibold break-words">{name}</p>
      <p className="break-words">{entry.error ?? 'The server refused it.'}</p>
      {typed.length > 0 ? (
        <>
          <p className="mt-2">What you entered:</p>
          <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
            {typed.map(({ label, value }) => (
              <div key={label} className="contents">
                <dt className="font-medium">{label}</dt>
                <dd className="break-words whitespace-pre-wrap text-text">{value}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      <button
        type="button"
        className="mt-2 min-h-11 rounded-control px-3 font-semibold underline focus:outline-none focus-visible:ring-2 focus-visible:ring-danger"
        aria-label={`Discard: ${name}`}
        onClick={() => entry.seq !== undefined && void discard(entry.seq)}
      >
        Discard
      </button>
    </li>
  );
}
