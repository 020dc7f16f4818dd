import { describe, expect, it } from 'vitest';
import {
  lastSyncLine,
  refusedNote,
  syncSheetLines,
  syncSummary,
  whyNotSent,
} from '../../../src/app/shell/sync-status-texts';

// What the sync status and the logout question say: only what is true, with counts. 'All changes are sent.'
// never stands beside a refused or waiting change, and 'offline' is said only of a device that is.

const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('the sync status sheet', () => {
  it('says everything is sent only when nothing waits and nothing was refused', () => {
    expect(syncSheetLines({ online: true, waiting: 0, refused: 0 })).toEqual([
      'You are online.',
      'All changes are sent.',
    ]);
    for (const counts of [
      { online: true, waiting: 1, refused: 0 },
      { online: true, waiting: 0, refused: 1 },
      { online: false, waiting: 2, refused: 1 },
    ])
      expect(syncSheetLines(counts).join(' ')).not.toContain('All changes are sent');
  });

  it('counts what waits and what was refused, online and offline', () => {
    expect(syncSheetLines({ online: true, waiting: 1, refused: 0 })).toEqual([
      'You are online.',
      '1 change waits to be sent.',
    ]);
    expect(syncSheetLines({ online: false, waiting: 2, refused: 0 })).toEqual([
      'You are offline: changes you make are kept on this device and sent when you are back online.',
      '2 changes wait to be sent.',
    ]);
    expect(syncSheetLines({ online: true, waiting: 0, refused: 1 })).toEqual([
      'You are online.',
      '1 change was refused by the server; every other change is sent.',
    ]);
    expect(syncSheetLines({ online: false, waiting: 3, refused: 2 })).toEqual([
      'You are offline: changes you make are kept on this device and sent when you are back online.',
      '3 changes wait to be sent.',
      '2 changes were refused by the server.',
    ]);
  });

  it('says when it last synced as a person would', () => {
    expect(lastSyncLine(NOW, NOW)).toBe('Last synced just now.');
    expect(lastSyncLine(NOW - 20_000, NOW)).toBe('Last synced just now.');
    expect(lastSyncLine(NOW - 2 * 60_000, NOW)).toBe('Last synced 2 minutes ago.');
    expect(lastSyncLine(NOW - 3 * 3600_000, NOW)).toBe('Last synced 3 hours ago.');
    expect(lastSyncLine(null, NOW)).toBe('Not synced yet on this device.');
  });

  it('names the state on the button and the counts beside it', () => {
    expect(syncSummary({ online: true, waiting: 0, refused: 0 })).toEqual({ state: 'Online', details: '' });
    expect(syncSummary({ online: false, waiting: 2, refused: 1 })).toEqual({
      state: 'Offline',
      details: ' · 2 changes waiting · 1 refused',
    });
  });
});

describe('why changes were not sent before signing out', () => {
  const base = { online: true, problem: undefined, total: 2, refused: 0, retryable: 0 } as const;

  it('says offline only when the device is', () => {
    expect(whyNotSent({ ...base, online: false })).toBe(
      'You are offline, so your changes could not be sent. Connect to the internet and try again, or discard them.',
    );
    // Online, nothing came back from the server: the server could not be reached, the device is online.
    const unreachable = whyNotSent({ ...base, problem: 'offline' });
    expect(unreachable).toBe(
      'The server could not be reached, so your changes could not be sent. Try again in a moment, or discard them.',
    );
    expect(unreachable).not.toMatch(/you are offline/i);
  });

  it('says a refused change is not sent by syncing, online or not, and offers trying again only where it can help', () => {
    for (const online of [true, false]) {
      expect(whyNotSent({ ...base, online, total: 1, refused: 1 })).toBe(
        'The server refused this change, so sending again will not help. Cancel and open the sync status to see what you typed, or discard it.',
      );
      expect(whyNotSent({ ...base, online, total: 1, refused: 1, retryable: 1 })).toBe(
        'The server refused this change. Cancel and open the sync status to try it again or see what you typed, or discard it.',
      );
    }
    expect(whyNotSent({ ...base, total: 3, refused: 3, retryable: 1 })).toBe(
      'The server refused these changes. Cancel and open the sync status to try again the 1 that can be sent again or see what you typed, or discard them.',
    );
  });

  it('keeps the session and policy reasons, and a busy server', () => {
    expect(whyNotSent({ ...base, problem: 'signed-out' })).toBe(
      'Your session has ended. Sign in again to send your changes.',
    );
    expect(whyNotSent({ ...base, problem: 'policy-not-accepted' })).toBe(
      'Your changes are sent once you accept the Beta User Policy. Cancel and accept it, or discard them.',
    );
    expect(whyNotSent({ ...base, problem: 'retrying' })).toBe(
      'Your changes could not be sent: the server did not take them just now. Try again in a moment, or discard them.',
    );
  });

  it('says how many of the unsent changes were refused and where to act on them', () => {
    expect(refusedNote({ total: 1, refused: 1, retryable: 0 })).toBe(
      'It was refused by the server: the sync status shows what you typed.',
    );
    expect(refusedNote({ total: 3, refused: 1, retryable: 1 })).toBe(
      '1 of them was refused by the server: the sync status shows what you typed and lets you try again.',
    );
    expect(refusedNote({ total: 3, refused: 2, retryable: 1 })).toBe(
      '2 of them were refused by the server: the sync status shows what you typed and lets you try again where that can help.',
    );
  });
});
