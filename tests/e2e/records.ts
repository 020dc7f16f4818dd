import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { medicalHistoryId } from '../../src/domain/medical-history';
import { sentFieldsOf, summaryPrescriptions } from '../fixtures/summary-records';
import {
  atEachViewport,
  bearer,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
} from './support';

// A few records of a patient's, sent through the API as a device sends them, for the browser tests of
// screens that show what a patient has (the summary, the medical ID): a medicine, a severe allergy, a
// condition and a blood pressure reading. And the check of such a screen at each size.

/** The records, sent by the patient's token as their device would send them. */
export async function seedRecords(request: APIRequestContext, token: string, patientId: string) {
  const change = (resource: string, payload: object, id: string = randomUUID()) => ({
    idempotency_key: randomUUID(),
    resource,
    op: 'create',
    id,
    payload: { ...payload, patient_id: patientId },
  });
  const response = await request.post('/api/sync/push', {
    headers: bearer(token),
    data: {
      changes: [
        // Metformin 500 mg, a tablet at 8:00 and 20:00: the summary fixtures' first medicine.
        change('prescriptions', sentFieldsOf(summaryPrescriptions[0] ?? {})),
        change(
          'medical_history',
          {
            allergies: [{ id: randomUUID(), substance: 'Penicillin', reaction: 'Hives', severity: 'severe' }],
            conditions: [{ id: randomUUID(), name: 'Asthma', onset: '2010', status: 'active', notes: '' }],
          },
          await medicalHistoryId(patientId),
        ),
        change('vitals', {
          kind: 'blood_pressure',
          unit: 'mmHg',
          systolic: 128,
          diastolic: 82,
          measured_at: '2026-11-20T08:00:00.000-05:00',
        }),
      ],
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const { results } = (await response.json()) as { results: { status: number }[] };
  expect(results.map(({ status }) => status < 300)).toEqual([true, true, true]);
}

/** The screen at the phone's and the laptop's size: axe finds nothing, nothing scrolls sideways, 44 px targets. */
export async function checkScreen(page: Page) {
  await atEachViewport(page, async () => {
    await expectNoAxeViolations(page);
    await expectNoHorizontalOverflow(page);
    await expectTapTargets(page.locator('main').locator('a, button'));
  });
}
