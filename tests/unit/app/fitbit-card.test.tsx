import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { FITBIT_MESSAGES, notConnectedFitbit, type FitbitData } from '../../../src/domain/fitbit';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import { http } from '../../../src/local/http';
import { setHttpEvents } from '../../../src/local/http-events';
import { fitbitKey } from '../../../src/local/fitbit';
import { fakeServer, type Answer, type Call } from '../local/support';

// Home's Fitbit card on the device: what the patient and a caregiver see for each
// answer of the server (not set up, not connected, ended by Fitbit, connected), the saved summary
// offline, and the patient's Connect button sending them to Fitbit's sign-in page.

const who = vi.hoisted(() => ({ role: 'Patient' as 'Caregiver' | 'Patient' }));
vi.mock('../../../src/app/shell/use-session', () => ({
  useSession: () => ({ token: 't', role: who.role, userId: 'user-pat' }),
}));
const online = vi.hoisted(() => ({ value: true }));
vi.mock('../../../src/app/ui/use-online', () => ({ useOnline: () => online.value }));

const { FitbitHomeCard } = await import('../../../src/app/features/fitbit/fitbit-home-card');

const PATIENT = '7d1f1c1e-0000-4000-8000-000000000002';
const DAY = (date: string, steps: number | null) => ({
  date,
  steps,
  resting_heart_rate: 60,
  sleep_minutes: 420,
});
const CONNECTED: FitbitData = {
  set_up: true,
  connected: true,
  reconnect: false,
  days: [DAY('2026-11-23', 5000), DAY('2026-11-24', null)],
  fetched_at: '2026-11-24T14:00:00.000Z',
};
const NOT_CONNECTED: FitbitData = notConnectedFitbit(true);

let db: KincareDb;
let route: (call: Call) => Answer;
let calls: Call[];
beforeAll(async () => {
  db = await openUserDb('fitbit-card');
});
beforeEach(async () => {
  who.role = 'Patient';
  online.value = true;
  await db.syncState.clear();
  const server = fakeServer((call) => route(call));
  calls = server.calls;
  http.defaults.adapter = server.adapter;
  setHttpEvents({ onUnauthorized: () => {}, onError: () => {} });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the patient', () => {
  it('sees the three 30-day charts, as of when Fitbit was read', async () => {
    route = () => ({ status: 200, data: CONNECTED });
    render(<FitbitHomeCard patientId={PATIENT} />);
    expect(await screen.findByTestId('fitbit-charts')).toBeTruthy();
    expect(
      screen.getAllByRole('img').map((image) => image.getAttribute('aria-label')?.split(':')[0]),
    ).toEqual(['Steps, 2 days', 'Resting heart rate, 2 days', 'Sleep, 2 days']);
    // 420 minutes asleep are 7 hours; a day with no steps is a gap, not a zero.
    expect(screen.getAllByRole('img')[2]?.getAttribute('aria-label')).toContain('latest 7 hours (Nov 24)');
    expect(screen.getAllByRole('img')[0]?.getAttribute('aria-label')).toContain('1 with a value');
    expect(screen.getByTestId('fitbit-summary').textContent).toContain('as of Tue, Nov 24, 2026, ');
  });

  it("is offered to connect, and Connect Fitbit goes to Fitbit's sign-in page", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    route = (call) =>
      call.url === '/fitbit/authorize'
        ? { status: 200, data: { url: 'https://fitbit.example/oauth2/authorize?x=1' } }
        : { status: 200, data: NOT_CONNECTED };
    render(<FitbitHomeCard patientId={PATIENT} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Connect Fitbit' }));
    await vi.waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://fitbit.example/oauth2/authorize?x=1'),
    );
  });

  it('is told plainly when Fitbit ended the connection, and when the server has no Fitbit', async () => {
    route = () => ({ status: 200, data: { ...NOT_CONNECTED, reconnect: true } });
    render(<FitbitHomeCard patientId={PATIENT} />);
    expect(await screen.findByText(FITBIT_MESSAGES.ended)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Connect Fitbit' })).toBeTruthy();
    cleanup();
    await db.syncState.clear();
    route = () => ({ status: 200, data: notConnectedFitbit(false) });
    render(<FitbitHomeCard patientId={PATIENT} />);
    expect(await screen.findByText(FITBIT_MESSAGES.notSetUp)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offline, shows the saved charts without asking, or says it needs a connection', async () => {
    online.value = false;
    route = () => {
      throw new Error('offline: no call expected');
    };
    render(<FitbitHomeCard patientId={PATIENT} />);
    expect(await screen.findByText(/needs a connection the first time/)).toBeTruthy();
    cleanup();
    await db.syncState.put({
      key: fitbitKey(PATIENT),
      value: JSON.stringify({ data: CONNECTED, savedAt: '2026-11-24T15:00:00.000Z' }),
    });
    render(<FitbitHomeCard patientId={PATIENT} />);
    expect(await screen.findByTestId('fitbit-charts')).toBeTruthy();
    expect(screen.getByTestId('fitbit-summary').textContent).toContain('offline');
    expect(calls).toHaveLength(0);
  });
});

describe('a caregiver', () => {
  it("reads the patient's charts with nothing to change, or 'Fitbit is not connected.'", async () => {
    who.role = 'Caregiver';
    route = () => ({ status: 200, data: CONNECTED });
    render(<FitbitHomeCard patientId={PATIENT} />);
    expect(await screen.findByTestId('fitbit-charts')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(calls[0]?.url).toBe('/fitbit/data');
    cleanup();
    await db.syncState.clear();
    route = () => ({ status: 200, data: NOT_CONNECTED });
    render(<FitbitHomeCard patientId={PATIENT} />);
    expect(await screen.findByText(FITBIT_MESSAGES.notConnected)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
