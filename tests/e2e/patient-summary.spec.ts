import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { medicalHistoryId } from '../../src/domain/medical-history';
import type { PatientSummary } from '../../src/domain/patient-summary';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  bearer,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  menuEntry,
  type Account,
} from './support';

// "Download health summary" on Medical History: the patient's records as a FHIR patient summary file,
// made on the device, so it is saved with no signal too; a caregiver's holds only what they may read.
// Each state: axe, no sideways scrolling, 44 px targets, at the phone's and the laptop's size.

const PHONE = { width: 390, height: 844 };

/** A medicine, an allergy and a blood pressure reading of the patient's, sent as a device sends them. */
async function seedRecords(request: APIRequestContext, token: string, patientId: string) {
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
        change('prescriptions', {
          medicine_name: 'Metformin',
          strength: '500 mg',
          form: 'tablet',
          directions: 'Take 1 tablet twice a day with meals',
          doctor_id: null,
          pharmacy_id: null,
          quantity: null,
          refills: null,
          start_date: '2025-01-10',
          end_date: null,
          times: ['08:00', '20:00'],
          as_needed: false,
          status: 'active',
          notes: '',
          attachment_key: null,
          time_zone: 'America/New_York',
          reminders: false,
          alert_after_minutes: 60,
          alert_caregivers: [],
        }),
        change(
          'medical_history',
          {
            allergies: [{ id: randomUUID(), substance: 'Penicillin', reaction: 'Hives', severity: 'severe' }],
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

/** The patient's records on the server, then Medical History opened on `page` once they have synced. */
async function openHistoryWithRecords(page: Page, request: APIRequestContext, patient: Account) {
  await seedRecords(request, patient.token, patient.patientId ?? '');
  await page.reload();
  await (await menuEntry(page, 'Medical History')).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Medical History' })).toBeVisible();
  await expect(page.getByText('Penicillin', { exact: true })).toBeVisible();
}

async function checkScreen(page: Page) {
  await atEachViewport(page, async () => {
    await expectNoAxeViolations(page);
    await expectNoHorizontalOverflow(page);
    await expectTapTargets(page.locator('main').locator('a, button'));
  });
}

/** Taps the button and answers the saved file's name and document. */
async function download(page: Page): Promise<{ name: string; summary: PatientSummary }> {
  const saving = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download health summary' }).click();
  const file = await saving;
  const path = await file.path();
  return {
    name: file.suggestedFilename(),
    summary: JSON.parse(await readFile(path, 'utf8')) as PatientSummary,
  };
}

const typesOf = (summary: PatientSummary) => summary.entry.map(({ resource }) => resource.resourceType);

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, patientName: 'Sue Summary' });

  test('a patient saves their health summary with no signal, and it holds their records', async ({
    patientPage: page,
    patient,
    request,
  }) => {
    await openHistoryWithRecords(page, request, patient);
    await checkScreen(page);

    await page.context().setOffline(true);
    const { name, summary } = await download(page);
    expect(name).toMatch(/^kincare-summary-sue-summary-\d{4}-\d{2}-\d{2}\.json$/);
    await expect(page.getByRole('status').filter({ hasText: `Saved ${name}.` })).toBeVisible();
    expect(summary).toMatchObject({ resourceType: 'Bundle', type: 'document' });
    expect(typesOf(summary)).toEqual(
      expect.arrayContaining([
        'Composition',
        'Patient',
        'MedicationStatement',
        'AllergyIntolerance',
        'Observation',
      ]),
    );
    const text = JSON.stringify(summary);
    expect(text).toContain('Metformin 500 mg (tablet)');
    expect(text).toContain('Penicillin');
    expect(text).toContain('"code":"8480-6"');
    await checkScreen(page);
    await page.context().setOffline(false);
  });

  test.describe('a caregiver', () => {
    test.use({ caregiverPermissions: ['ReadMedicalHistory'] });
    test('a caregiver’s summary holds what they may read, and says the rest is not shared', async ({
      caregiverPage: page,
      patient,
      request,
    }) => {
      await openHistoryWithRecords(page, request, patient);
      await checkScreen(page);
      const { summary } = await download(page);
      const text = JSON.stringify(summary);
      expect(text).toContain('Penicillin');
      expect(text).not.toContain('Metformin');
      expect(text).not.toContain('8480-6');
      expect(text).toContain('"code":"withheld"');
      expect(typesOf(summary)).toContain('RelatedPerson');
    });
  });
});
