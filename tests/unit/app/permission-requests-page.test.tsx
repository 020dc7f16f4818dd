import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import axios from 'axios';
import type { PermissionRequestEntry } from '../../../src/domain/caregivers';
import { PermissionRequestsPage } from '../../../src/app/features/permission-requests/permission-requests-page';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import { http } from '../../../src/local/http';
import { OFFLINE_MESSAGE } from '../../../src/local/http-errors';
import { fakeServer, type Call } from '../local/support';

// The patient's 'Caregivers Permission List' read from the replica: pending rows have
// Accept and Decline, approved ones (any case, 'Accepted' too) read Approved, anything else Rejected; an
// answer goes to the server only when online.

const row = (id: string, status: string, name: string): PermissionRequestEntry => ({
  id,
  requested_at: `2026-03-0${id.length}T10:00:00Z`,
  name,
  permissions: ['AddAppointment'],
  status,
  patient_id: 'p1',
  caregiver_id: `c-${id}`,
});

let db: KincareDb;
let calls: Call[];
const online = vi.spyOn(navigator, 'onLine', 'get');

beforeAll(async () => {
  db = await openUserDb('permission-requests-page');
});
beforeEach(async () => {
  online.mockReturnValue(true);
  await db.permissionRequests.clear();
  await db.permissionRequests.bulkPut([
    row('a', 'PENDING', 'Alex Asker'),
    row('bb', 'APPROVED', 'Bea Granted'),
    row('ccc', 'Accepted', 'Cal Accepted'),
    row('dddd', 'rejected', 'Dee Declined'),
    row('eeeee', 'withdrawn', 'Eve Other'),
  ]);
  const server = fakeServer((call) => {
    calls.push(call);
    return { status: 200, data: { success: true, message: 'Permissions granted.' } };
  });
  calls = [];
  http.defaults.adapter = server.adapter;
  axios.defaults.adapter = server.adapter;
});
afterEach(cleanup);
afterAll(() => online.mockRestore());

const card = (name: string) =>
  screen.getAllByRole('listitem').find((item) => item.textContent?.includes(name)) ?? document.body;

describe('PermissionRequestsPage', () => {
  it('answers only pending requests and names every other status Approved or Rejected', async () => {
    render(<PermissionRequestsPage />);
    await screen.findAllByText('Alex Asker');
    expect(
      within(card('Alex Asker')).getByRole('button', { name: 'Accept the request of Alex Asker' }),
    ).toBeTruthy();
    expect(within(card('Alex Asker')).getByText('Pending')).toBeTruthy();
    for (const [name, shown] of [
      ['Bea Granted', 'Approved'],
      ['Cal Accepted', 'Approved'],
      ['Dee Declined', 'Rejected'],
      ['Eve Other', 'Rejected'],
    ] as const) {
      expect(within(card(name)).getByText(shown)).toBeTruthy();
      expect(within(card(name)).queryAllByRole('button')).toHaveLength(0);
    }
    // A phone has the cards only: each answer is in the page once.
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('is a table from 768 px with the same rows under the columns, and no cards', async () => {
    window.matchMedia = ((query: string) => ({
      matches: true,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })) as unknown as typeof window.matchMedia;
    try {
      render(<PermissionRequestsPage />);
      const table = await screen.findByRole('table', { name: 'Permission requests from your caregivers' });
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((cell) => cell.textContent),
      ).toEqual(['Requested', 'Caregiver', 'Permissions', 'Status']);
      const row = within(table)
        .getAllByRole('row')
        .find((item) => item.textContent?.includes('Alex Asker'));
      expect(
        row && within(row).getByRole('button', { name: 'Accept the request of Alex Asker' }),
      ).toBeTruthy();
      expect(row?.textContent).toContain('Add Appointment');
      expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    } finally {
      Reflect.deleteProperty(window, 'matchMedia');
    }
  });

  it('sends Accept and Decline to the server as the contract names them', async () => {
    render(<PermissionRequestsPage />);
    await screen.findAllByText('Alex Asker');
    fireEvent.click(
      within(card('Alex Asker')).getByRole('button', { name: 'Accept the request of Alex Asker' }),
    );
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
        url: '/request/permission-requests',
        body: { request_id: 'a' },
      }),
    );
    calls = [];
    fireEvent.click(
      within(card('Alex Asker')).getByRole('button', { name: 'Decline the request of Alex Asker' }),
    );
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
        url: '/request/reject-permission',
        body: { request_id: 'a' },
      }),
    );
  });

  it('offline, an answer says it needs a connection and sends nothing', async () => {
    online.mockReturnValue(false);
    render(<PermissionRequestsPage />);
    await screen.findAllByText('Alex Asker');
    fireEvent.click(
      within(card('Alex Asker')).getByRole('button', { name: 'Accept the request of Alex Asker' }),
    );
    expect((await screen.findAllByText(OFFLINE_MESSAGE)).length).toBeGreaterThan(0);
    expect(calls).toEqual([]);
  });
});
