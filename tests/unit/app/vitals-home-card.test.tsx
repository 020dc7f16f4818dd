// Home's Vitals card (screens/home/home-feature-cards.tsx with features/vitals/vitals-home-card.tsx): the
// newest readings with their units, a reading entered in two taps (the kind, then Save) without leaving
// Home, no buttons for a caregiver without Add Vitals, and only why for one without Read Vitals.

import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { DateTime } from 'luxon';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import { screenDrawn } from '../../../src/app/ui/first-screen';

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}));
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('react-hot-toast', () => ({ default: toasts }));
const { VitalsCard } = await import('../../../src/app/screens/home/home-feature-cards');
const { NO_ACCESS_TEXT } = await import('../../../src/app/features/dashboard/home-card');

const PATIENT = '7d1f1c1e-0000-4000-8000-0000000000b1';
const CAREGIVER = '7d1f1c1e-0000-4000-8000-0000000000b2';
let db: KincareDb;
beforeAll(async () => {
  db = await openUserDb('vitals-home-card');
  screenDrawn();
});
beforeEach(async () => {
  await Promise.all([db.vitals.clear(), db.outbox.clear()]);
  localStorage.clear();
});
afterEach(cleanup);

describe('the Vitals card', () => {
  it('enters a blood pressure in two taps, and shows it with its unit', async () => {
    render(<VitalsCard patientId={PATIENT} caregiver={false} allowed caregiverId={null} canAdd />);
    const card = await screen.findByTestId('home-vitals');
    // The card's content is a chunk of its own, loaded after Home is drawn: the first load takes a while here.
    expect(
      await within(card).findByText(
        'No readings yet. Choose what you measured to add one.',
        {},
        { timeout: 15_000 },
      ),
    ).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'See all vitals' }).getAttribute('href')).toBe('/vitals');

    fireEvent.click(within(card).getByRole('button', { name: 'Blood pressure' })); // tap 1
    const form = await screen.findByRole('form', { name: 'New blood pressure reading' });
    const top = within(form).getByRole('textbox', { name: 'Top number (systolic)' });
    await waitFor(() => expect(document.activeElement).toBe(top));
    fireEvent.change(top, { target: { value: '124' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Bottom number (diastolic)' }), {
      target: { value: '79' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' })); // tap 2
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(card).findByText('124/79 mmHg')).toBeTruthy();
    expect(within(card).getByText(/^Today, \d{1,2}:\d{2}( [AP]M)?$/)).toBeTruthy();
    expect(await db.outbox.count()).toBe(1);
  });

  it('shows a caregiver who may read but not add the readings, without the buttons', async () => {
    await db.vitals.put({
      id: crypto.randomUUID(),
      patient_id: PATIENT,
      version: 1,
      caregiver_id: null,
      kind: 'temperature',
      unit: '°C',
      value: 38.4,
      systolic: null,
      diastolic: null,
      fasting: null,
      note: null,
      measured_at: DateTime.now().minus({ minutes: 5 }).toISO() ?? '',
      created_at: '',
      updated_at: '',
    });
    render(<VitalsCard patientId={PATIENT} caregiver allowed caregiverId={CAREGIVER} canAdd={false} />);
    const card = await screen.findByTestId('home-vitals');
    // en-US reads °F; the reading was entered in °C and says so.
    expect(await within(card).findByText('101.1 °F')).toBeTruthy();
    expect(within(card).getByText('Entered as 38.4 °C')).toBeTruthy();
    expect(within(card).getByText('High')).toBeTruthy();
    expect(within(card).queryByRole('group', { name: 'Add a reading' })).toBeNull();
    expect(within(card).getByRole('link', { name: 'See all vitals' }).getAttribute('href')).toBe(
      '/caregiver/vitals',
    );
  });

  it('tells a caregiver without Read Vitals only why', async () => {
    render(<VitalsCard patientId={PATIENT} caregiver allowed={false} caregiverId={CAREGIVER} canAdd />);
    const card = await screen.findByTestId('home-vitals');
    expect(within(card).getByText(NO_ACCESS_TEXT)).toBeTruthy();
    expect(within(card).queryAllByRole('button')).toHaveLength(0);
  });
});
