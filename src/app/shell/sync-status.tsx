import { useState } from 'react';
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { DateTime } from 'luxon';
import { hasUserDb, userDb, type OutboxEntry } from '../../local/db';
import { discardFailed } from '../../local/outbox';
import { LAST_SYNC_KEY } from '../../local/sync-engine';
import { syncNow } from '../../local/sync-client';
import { Button } from '../ui/button';
import { useOnline } from './use-online';
import { describeChange, typedValuesOf, type TypedValue } from './refused-changes';

// The sync status in the header: online or offline, how many changes wait, when the last sync finished,
// 'Sync now', and the changes the server refused, each with its record, the reason, what the person had
// typed (to enter it again) and a discard action.

type RefusedChange = { entry: OutboxEntry; typed: TypedValue[] };

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

  return (
    <Popover>
      <PopoverButton
        className={`flex items-center gap-2 rounded-full px-3 py-1 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ${
          failed.length > 0
            ? 'bg-red-100 text-red-900'
            : online
              ? 'bg-brand-50 text-brand-900'
              : 'bg-amber-100 text-amber-900'
        }`}
        aria-label={`Sync status: ${summary}`}
        data-testid="sync-status"
      >
        <span aria-hidden="true">{online ? '●' : '○'}</span>
        {summary}
      </PopoverButton>
      {/* Positioned against the header (not the button): right-aligned and never wider than the screen,
          so it stays on screen on a phone however the header wraps. Not portalled, so it stays in the
          header's landmark and in the tab order right after the button. */}
      <PopoverPanel
        data-testid="sync-status-panel"
        className="absolute top-full right-2 z-40 mt-1 max-h-[calc(100dvh-8rem)] w-[min(24rem,calc(100vw_-_1rem))] overflow-y-auto rounded-lg bg-white p-4 shadow-lg ring-1 ring-slate-200"
      >
        <p className="text-sm text-slate-800">
          {online ? 'Online' : 'Offline: changes are kept on this device and sent when you are back online.'}
        </p>
        <p className="mt-1 text-sm text-slate-800">
          {waiting === 0
            ? 'All changes are sent.'
            : `${waiting} ${waiting === 1 ? 'change waits' : 'changes wait'} to be sent.`}
        </p>
        <p className="mt-1 text-sm text-slate-700">
          Last sync:{' '}
          {facts?.lastSyncAt
            ? DateTime.fromMillis(facts.lastSyncAt).toFormat('ccc, LLL dd, HH:mm:ss')
            : 'not yet'}
        </p>
        <Button className="mt-3 min-h-11 w-full" onClick={() => void runSync()} disabled={syncing || !online}>
          {syncing ? 'Syncing...' : 'Sync now'}
        </Button>
        {failed.length > 0 ? (
          <div className="mt-4">
            <h3 className="text-sm font-semibold text-red-900">Changes that could not be saved</h3>
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

function RefusedChangeItem({ entry, typed }: RefusedChange) {
  const name = describeChange(entry);
  return (
    <li className="rounded bg-red-50 p-2 text-sm text-red-900">
      <p className="font-semibold break-words">{name}</p>
      <p className="break-words">{entry.error ?? 'The server refused it.'}</p>
      {typed.length > 0 ? (
        <>
          <p className="mt-2 text-red-900">What you entered:</p>
          <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
            {typed.map(({ label, value }) => (
              <div key={label} className="contents">
                <dt className="font-medium">{label}</dt>
                <dd className="break-words whitespace-pre-wrap text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      <button
        type="button"
        className="mt-2 min-h-11 rounded px-3 font-semibold underline focus:outline-none focus-visible:ring-2 focus-visible:ring-red-800"
        aria-label={`Discard: ${name}`}
        onClick={() => entry.seq !== undefined && void discardFailed(userDb(), entry.seq)}
      >
        Discard
      </button>
    </li>
  );
}
