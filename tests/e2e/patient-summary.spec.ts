import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import type { PatientSummary } from '../../src/domain/patient-summary';
import { expect, test } from './fixtures';
import { checkScreen, seedRecords } from './records';
import { menuEntry, type Account } from './support';

// "Download health summary" on Medical History: the patient's records as a FHIR patient summary file,
// made on the device, so it is saved with no signal too; a caregiver's holds only what they may read.
// Each state: axe, no sideways scrolling, 44 px targets, at the phone's and the laptop's size.

const PHONE = { width: 390, height: 844 };

/** The patient's records on the server, then Medical History opened on `page` once they have synced. */
async function openHistoryWithRecords(page: Page, request: APIRequestContext, patient: Account) {
  await seedRecords(request, patient.token, patient.patientId ?? '');
  await page.reload();
  await (await menuEntry(page, 'Medical History')).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Medical History' })).toBeVisible();
  await expect(page.getByText('Penicillin', { exact: true })).toBeVisible();
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
