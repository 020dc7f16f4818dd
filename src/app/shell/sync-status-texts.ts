import { relativeTime } from '../../domain/date-display';
import type { RetryCondition } from '../../domain/refusals';
import type { SyncResult } from '../../local/sync-engine';

// What the sync status (sync-status.tsx) and the logout question (unsent-changes-dialog.tsx) say, from the
// facts on the device: online or not, how many changes wait to be sent, how many the server refused, and
// when the last sync finished. Each sentence says only what is true: 'All changes are sent.' only when
// nothing waits and nothing was refused, 'offline' only when the device is.

export type SyncCounts = {
  online: boolean;
  /** Changes queued and not sent yet (pending). */
  waiting: number;
  /** Changes the server refused, kept until the person sends them again or discards them. */
  refused: number;
};

const changes = (count: number) => `${count} ${count === 1 ? 'change' : 'changes'}`;

/** The header button's words, in full (a phone shows the first part and reads out the rest). */
export function syncSummary({ online, waiting, refused }: SyncCounts): {
  state: string;
  details: string;
} {
  return {
    state: online ? 'Online' : 'Offline',
    details: `${waiting > 0 ? ` · ${changes(waiting)} waiting` : ''}${refused > 0 ? ` · ${refused} refused` : ''}`,
  };
}

/** The sheet's sentences: the connection, then what is sent, what waits and what was refused. */
export function syncSheetLines({ online, waiting, refused }: SyncCounts): string[] {
  const lines = [
    online
      ? 'You are online.'
      : 'You are offline: changes you make are kept on this device and sent when you are back online.',
  ];
  if (waiting === 0 && refused === 0) return [...lines, 'All changes are sent.'];
  if (waiting > 0) lines.push(`${changes(waiting)} ${waiting === 1 ? 'waits' : 'wait'} to be sent.`);
  if (refused > 0)
    lines.push(
      `${changes(refused)} ${refused === 1 ? 'was' : 'were'} refused by the server${
        waiting === 0 ? '; every other change is sent' : ''
      }.`,
    );
  return lines;
}

/** 'Last synced just now.', 'Last synced 2 minutes ago.', or that this device has not synced yet. */
export function lastSyncLine(lastSyncAt: number | null, now: number): string {
  return lastSyncAt === null
    ? 'Not synced yet on this device.'
    : `Last synced ${relativeTime(lastSyncAt, now)}.`;
}

/** Under a refused change that can be sent again: when doing so can succeed. */
export const RETRY_HINTS: Record<RetryCondition, string> = {
  permission: 'If you have been given permission for this since, try again.',
  policy: 'Once you have accepted the Beta User Policy, try again.',
  session: 'Once you have signed in again, try again.',
};

/** At logout, of the unsent changes: how many the server refused, and where to see them. */
export function refusedNote({
  total,
  refused,
  retryable,
}: {
  total: number;
  refused: number;
  retryable: number;
}) {
  const who =
    refused === total
      ? total === 1
        ? 'It was'
        : 'They were'
      : `${refused} of them ${refused === 1 ? 'was' : 'were'}`;
  const retry =
    retryable === 0
      ? ''
      : retryable === refused
        ? ' and lets you try again'
        : ' and lets you try again where that can help';
  return `${who} refused by the server: the sync status shows what you typed${retry}.`;
}

/** Why a sync that was asked to send everything before signing out left changes behind. */
export function whyNotSent(facts: {
  online: boolean;
  /** The sync's own account of why it stopped (sync-engine.ts), when one ran. */
  problem: SyncResult['problem'];
  /** Changes left unsent, refused ones included. */
  total: number;
  refused: number;
  /** Of the refused ones, those that can be sent again. */
  retryable: number;
}): string {
  const { online, problem, total, refused, retryable } = facts;
  // Refused changes are not sent by syncing, online or not: only the person's choice moves them.
  if (refused === total) {
    const one = total === 1;
    const it = one ? 'it' : 'them';
    if (retryable === 0)
      return `The server refused ${one ? 'this change' : 'these changes'}, so sending again will not help. Cancel and open the sync status to see what you typed, or discard ${it}.`;
    if (retryable === total)
      return `The server refused ${one ? 'this change' : 'these changes'}. Cancel and open the sync status to try ${it} again or see what you typed, or discard ${it}.`;
    return `The server refused these changes. Cancel and open the sync status to try again the ${retryable} that can be sent again or see what you typed, or discard them.`;
  }
  if (!online)
    return 'You are offline, so your changes could not be sent. Connect to the internet and try again, or discard them.';
  // Online, yet nothing came back: the server (or the way to it) is down, not this device's connection.
  if (problem === 'offline')
    return 'The server could not be reached, so your changes could not be sent. Try again in a moment, or discard them.';
  if (problem === 'signed-out') return 'Your session has ended. Sign in again to send your changes.';
  if (problem === 'policy-not-accepted')
    return 'Your changes are sent once you accept the Beta User Policy. Cancel and accept it, or discard them.';
  return 'Your changes could not be sent: the server did not take them just now. Try again in a moment, or discard them.';
}
