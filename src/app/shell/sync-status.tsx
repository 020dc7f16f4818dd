import { useEffect, useRef, useState } from 'react';
import { Popover, PopoverBackdrop, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { retryConditionOf } from '../../domain/refusals';
import { hasUserDb, userDb, type OutboxEntry } from '../../local/db';
import { LAST_SYNC_KEY } from '../../local/sync-trigger';
import { syncNow } from '../../local/sync-trigger';
import { RefreshCw } from 'lucide-react';
import { Button } from '../ui/button';
import { useOnline } from '../ui/use-online';
import { useCountAsOpenSheet } from '../ui/open-sheets';
import { useWideScreen } from '../ui/use-wide-screen';
import { describeChange, typedValuesOf, type TypedValue } from './refused-changes';
import { lastSyncLine, RETRY_HINTS, syncSheetLines, syncSummary } from './sync-status-texts';

// The sync status in the header: online or offline, how many changes wait, how many were refused, when the
// last sync finished (in words: 'just now', '2 minutes ago'), 'Sync now', and the changes the server refused,
// each with its record, the reason, what the person had typed (to enter it again), Discard, and Try again
// where sending it again can succeed (domain/refusals.ts). The words are in sync-status-texts.ts.

type RefusedChange = { entry: OutboxEntry; typed: TypedValue[] };

/** Discarding and sending again load the outbox's code when asked: the header is on every first screen. */
async function discard(seq: number): Promise<void> {
  const { discardFailed } = await import('../../local/outbox');
  await discardFailed(userDb(), seq);
}

async function retry(seq: number): Promise<void> {
  const { retryRefused } = await import('../../local/outbox');
  await retryRefused(userDb(), seq);
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
  const waiting = facts?.waiting ?? 0;
  const failed = facts?.failed ?? [];
  const counts = { online, waiting, refused: failed.length };
  const { state: stateWord, details } = syncSummary(counts);
  const state = failed.length > 0 ? 'failed' : online ? 'online' : 'offline';
  const badge = waiting + failed.length;

  return (
    <Popover>
      {/* On a phone only the state shows ('Online', a count beside it); the rest is read out, and shown
          in full from 768 px. The dot is a text glyph so the status reads the same to every test and reader. */}
      <PopoverButton
        className={`flex min-h-11 items-center gap-1.5 rounded-full px-3 text-small font-semibold ring-1 ring-inset focus:outline-none focus-visible:ring-2 focus-visible:ring-focus ${STATE_CLASS[state]}`}
        aria-label={`Sync status: ${stateWord}${details}`}
        data-testid="sync-status"
        data-badge={badge > 0 ? String(badge) : ''}
      >
        <span aria-hidden="true">{online ? '●' : '○'}</span>
        {stateWord}
        <span className="max-md:sr-only">{details}</span>
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
        <SyncSheetBody counts={counts} lastSyncAt={facts?.lastSyncAt ?? null} failed={failed} />
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

/** The panel's content, drawn only while it is open: its 'Last synced' words follow the clock. */
function SyncSheetBody({
  counts,
  lastSyncAt,
  failed,
}: {
  counts: { online: boolean; waiting: number; refused: number };
  lastSyncAt: number | null;
  failed: RefusedChange[];
}) {
  const now = useNow();
  const [syncing, setSyncing] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  const cannotSync = syncing || !counts.online;
  const runSync = async () => {
    if (cannotSync) return;
    setSyncing(true);
    try {
      await syncNow();
    } finally {
      setSyncing(false);
    }
  };
  return (
    <>
      {/* Read out when a count changes while the sheet is open (a change sent, one sent again and refused).
          Focus comes here when the refused change whose button had it leaves the list. */}
      <div
        ref={summary}
        tabIndex={-1}
        role="status"
        className="mt-2 space-y-1 text-small text-text focus:outline-none"
        data-testid="sync-status-summary"
      >
        {syncSheetLines(counts).map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <p className="mt-1 text-small text-muted" data-testid="sync-status-last">
        {lastSyncLine(lastSyncAt, now)}
      </p>
      {/* aria-disabled, not disabled: the panel keeps a control to tab to while offline (a panel with none
          is taken for a portalled one, and gets focus guards that axe rightly flags). */}
      <Button
        className="mt-3 w-full aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
        onClick={() => void runSync()}
        aria-disabled={cannotSync}
      >
        <RefreshCw aria-hidden="true" className={`h-5 w-5 ${syncing ? 'animate-spin' : ''}`} />
        {syncing ? 'Syncing...' : 'Sync now'}
      </Button>
      {failed.length > 0 ? (
        <div className="mt-4">
          <h3 className="text-small font-semibold text-danger-strong">Refused changes</h3>
          <ul className="mt-2 space-y-2">
            {failed.map(({ entry, typed }) => (
              <RefusedChangeItem
                key={entry.seq}
                entry={entry}
                typed={typed}
                onSettled={() => summary.current?.focus()}
              />
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

/** The time now, read again every 30 seconds ('just now' becomes '1 minute ago' while the sheet is open). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const ACTION_CLASS =
  'min-h-11 min-w-11 rounded-control px-3 font-semibold underline focus:outline-none focus-visible:ring-2 focus-visible:ring-danger';

function RefusedChangeItem({ entry, typed, onSettled }: RefusedChange & { onSettled: () => void }) {
  const name = describeChange(entry);
  const condition = retryConditionOf(entry.refusal);
  const settle = (action: (seq: number) => Promise<void>) => {
    if (entry.seq !== undefined) void action(entry.seq).then(onSettled);
  };
  return (
    <li className="rounded-control bg-danger-soft p-3 text-small text-danger-strong">
      <p className="font-semibold break-words">{name}</p>
      <p className="break-words">{entry.error ?? 'The server refused it.'}</p>
      {condition ? <p className="mt-1 break-words">{RETRY_HINTS[condition]}</p> : null}
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
      <div className="mt-2 flex flex-wrap gap-2">
        {/* Only where sending it again can succeed: a change refused for good would only be refused again. */}
        {condition ? (
          <button
            type="button"
            className={ACTION_CLASS}
            aria-label={`Try again: ${name}`}
            onClick={() => settle(retry)}
          >
            Try again
          </button>
        ) : null}
        <button
          type="button"
          className={ACTION_CLASS}
          aria-label={`Discard: ${name}`}
          onClick={() => settle(discard)}
        >
          Discard
        </button>
      </div>
    </li>
  );
}
