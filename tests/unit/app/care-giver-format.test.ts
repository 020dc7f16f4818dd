import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src/domain/caregivers';
import { activityLine } from '../../../src/app/features/care-giver/care-format';
import { permissionLabels } from '../../../src/domain/permissions';
import {
  requestedAt,
  shownStatusOf,
} from '../../../src/app/features/permission-requests/permission-request-format';

// How the caregiver pages word what the replica holds: the activity sentence with its time, permission
// labels, and the permission-request status compared case-insensitively.

const entry = (overrides: Partial<ActivityEntry>): ActivityEntry => ({
  id: '1',
  at: '2026-03-03T14:05:00Z',
  actor_name: 'Alex',
  kind: 'write',
  resource: 'appointments',
  op: 'create',
  record_id: 'r1',
  count: 1,
  ...overrides,
});

// The device's zone is the process's (Node reads TZ again when it changes).
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
let zone: string | undefined;
beforeEach(() => {
  zone = env.TZ;
  env.TZ = 'UTC';
});
afterEach(() => {
  env.TZ = zone;
});

describe('activityLine', () => {
  it("reads 'Alex added an appointment, Tue, Mar 03, 2026, 2:05 PM' (the app's date and time)", () => {
    expect(activityLine(entry({}))).toBe('Alex added an appointment, Tue, Mar 03, 2026, 2:05 PM');
  });

  it("says what a day's deliveries brought, and when the last came", () => {
    expect(activityLine(entry({ kind: 'delivery', op: null, count: 12, at: '2026-11-20T09:30:00Z' }))).toBe(
      "Alex's device received 12 appointments that day, the last on Fri, Nov 20, 2026 at 9:30 AM",
    );
    expect(activityLine(entry({ kind: 'delivery', op: null, count: 1, at: 'soon' }))).toBe(
      "Alex's device received 1 appointment",
    );
  });

  it('shows the time in the zone of the device', () => {
    env.TZ = 'America/New_York';
    expect(activityLine(entry({}))).toBe('Alex added an appointment, Tue, Mar 03, 2026, 9:05 AM');
  });

  it('leaves out a time that is not one', () => {
    expect(activityLine(entry({ at: 'soon' }))).toBe('Alex added an appointment');
  });
});

describe('permissionLabels', () => {
  it('names permissions by their catalogue labels, and an unknown value as it is', () => {
    expect(permissionLabels(['ReadAppointment', 'AddDoctors', 'Teleport'])).toEqual([
      'Read Appointment',
      'Add Doctors',
      'Teleport',
    ]);
  });
});

describe('shownStatusOf', () => {
  it.each([
    ['pending', 'pending'],
    ['PENDING', 'pending'],
    ['Approved', 'approved'],
    ['accepted', 'approved'],
    ['Accepted', 'approved'],
    ['rejected', 'rejected'],
    ['REJECTED', 'rejected'],
    // Anything else is not a request to answer: it reads Rejected.
    ['cancelled', 'rejected'],
    ['', 'rejected'],
  ])('%s -> %s', (status, shown) => {
    expect(shownStatusOf({ status })).toBe(shown);
  });
});

describe('requestedAt', () => {
  it('shows the date and time, and nothing for a value that is not a date', () => {
    expect(requestedAt('2026-03-03T14:05:00Z')).toBe('Tue, Mar 03, 2026, 2:05 PM');
    expect(requestedAt('yesterday')).toBe('');
  });
});
