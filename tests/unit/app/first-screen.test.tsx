import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import type * as FirstScreenModule from '../../../src/app/ui/first-screen';

// The shell's extras (the sync client, the sync status, the weather, the toasts, the forms' rules) wait
// for the screen to be drawn (src/app/ui/first-screen.ts): a screen that says so lets them start after
// its paint, any other after SCREEN_WAIT_MS; once started they stay started.

type FirstScreen = typeof FirstScreenModule;
let firstScreen: FirstScreen;

function Extras() {
  const drawn = firstScreen.useScreenDrawn();
  return <p>{drawn ? 'extras started' : 'extras waiting'}</p>;
}

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules(); // each test starts with a page that has drawn nothing yet
  firstScreen = await import('../../../src/app/ui/first-screen');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the first screen', () => {
  it('holds the extras until the screen says it is drawn, then starts them after its paint', async () => {
    render(<Extras />);
    expect(screen.getByText('extras waiting')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(firstScreen.SCREEN_WAIT_MS / 2));
    expect(screen.getByText('extras waiting')).toBeTruthy();
    act(() => firstScreen.screenDrawn());
    expect(screen.getByText('extras waiting')).toBeTruthy(); // not before the browser has painted it
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(screen.getByText('extras started')).toBeTruthy();
  });

  it('starts them after SCREEN_WAIT_MS when no screen says anything, and keeps them started', async () => {
    render(<Extras />);
    await act(() => vi.advanceTimersByTimeAsync(firstScreen.SCREEN_WAIT_MS - 10));
    expect(screen.getByText('extras waiting')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(20));
    expect(screen.getByText('extras started')).toBeTruthy();
    cleanup();
    // A later screen (the next page) finds them started from its first render.
    render(<Extras />);
    expect(screen.getByText('extras started')).toBeTruthy();
  });
});
