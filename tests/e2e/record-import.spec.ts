import type { APIRequestContext, Page } from '@playwright/test';
import { ccdaSamplePath, samplesMissing } from '../fixtures/ccda-samples';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  bearer,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  menuEntry,
  syncNow,
} from './support';

// /medical-history/import: a patient takes a portal's C-CDA file (HL7's public examples, read from the
// shared samples folder), reviews what was found, adds it, and finds it in their records and on the
// server; the same file again adds nothing; offline the screen says reading needs a connection; a file
// about someone else asks first, and a missing severity is asked for. Each state: axe, no sideways
// scrolling, 44 px targets, at the phone's and the laptop's size.

const PHONE = { width: 390, height: 844 };
const sample = (name: Parameters<typeof ccdaSamplePath>[0]) => {
  if (samplesMissing) throw new Error(samplesMissing);
  return ccdaSamplePath(name);
};
const main = (page: Page) => page.locator('main');

async function openImport(page: Page) {
  await (await menuEntry(page, 'Medical History')).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Medical History' })).toBeVisible();
  await page.getByRole('link', { name: 'Import records from a file' }).click();
  await expect(page).toHaveURL(/\/medical-history\/import$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Import records' })).toBeVisible();
}

async function checkScreen(page: Page) {
  await atEachViewport(page, async () => {
    await expectNoAxeViolations(page);
    await expectNoHorizontalOverflow(page);
    // A checkbox is tapped through its label, the whole row: the row is the target.
    await expectTapTargets(
      main(page).locator(
        'a, button, select, input:not([type="checkbox"]), label:has(input[type="checkbox"])',
      ),
    );
  });
}

async function readFile(page: Page, name: Parameters<typeof ccdaSamplePath>[0]) {
  await page.getByLabel('Record file').setInputFiles(sample(name));
  await page.getByRole('button', { name: 'Read file' }).click();
}

async function serverAllergies(request: APIRequestContext, token: string): Promise<string[]> {
  const response = await request.get('/api/medical-history', { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  const { allergies } = (await response.json()).data as { allergies: { substance: string }[] };
  return allergies.map((allergy) => allergy.substance);
}

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, patientName: 'Eve Betterhalf' });

  test('a patient imports a CCD, finds it in their records, and the same file again adds nothing', async ({
    patientPage: page,
    patient: { token },
    request,
  }) => {
    await openImport(page);
    await checkScreen(page);

    // Offline, the screen says why it cannot read, and changes nothing.
    await page.context().setOffline(true);
    await expect(page.getByText('You are offline. Reading a file needs a connection')).toBeVisible();
    await page.getByLabel('Record file').setInputFiles(sample('ccd-1.xml'));
    await expect(page.getByRole('button', { name: 'Read file' })).toBeDisabled();
    await page.context().setOffline(false);

    await page.getByRole('button', { name: 'Read file' }).click();
    const allergies = page.getByRole('group', { name: /Allergies/ });
    await expect(allergies.getByRole('checkbox', { name: /Penicillin/ })).toBeChecked();
    await expect(allergies.getByText('Reaction: Nausea · Severity: Mild')).toBeVisible();
    await expect(page.getByRole('group', { name: /Medicines/ }).getByText('Albuterol 0.09 mg')).toBeVisible();
    const results = page.getByRole('group', { name: /Lab results/ });
    await expect(results.getByText('Platelets: 123 10*9/L (range 150-350) Low')).toBeVisible();
    await expect(page.getByText('This file may be someone else’s')).toHaveCount(0);
    await checkScreen(page);

    // Leave one out: it is not added.
    await page
      .getByRole('group', { name: /Allergies/ })
      .getByRole('checkbox', { name: /codeine/ })
      .uncheck();
    await page.getByRole('button', { name: /^Add \d+ records$/ }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Added \d+ records/ })).toBeVisible();

    await page.getByRole('link', { name: 'Medical History' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Medical History' })).toBeVisible();
    await expect(page.getByText('Penicillin', { exact: true })).toBeVisible();
    await expect(page.getByText('Chest pain', { exact: true })).toBeVisible();
    await expect(page.getByText('codeine', { exact: true })).toHaveCount(0);
    await syncNow(page);
    await expect.poll(() => serverAllergies(request, token)).toEqual(['Penicillin']);
    // The results arrived as a lab report with its rows, and a file made on the device to go with them.
    const serverReports = async () => {
      const response = await request.get('/api/lab-reports', { headers: bearer(token) });
      const { data } = (await response.json()) as {
        data: { report_type: string; report_image: string | null; report_ocr: string }[];
      };
      return data.map((report) => ({
        type: report.report_type,
        pdf: /\.pdf$/.test(report.report_image ?? ''),
        platelets: report.report_ocr.includes('"code":"777-3"'),
      }));
    };
    await expect
      .poll(serverReports)
      .toEqual([{ type: 'CBC W Auto Differential panel in Blood', pdf: true, platelets: true }]);

    // The same file again: everything added is marked, and there is nothing new to add but codeine.
    await page.getByRole('link', { name: 'Import records from a file' }).click();
    await readFile(page, 'ccd-1.xml');
    await expect(allergies.getByRole('checkbox', { name: /Penicillin/ })).toBeDisabled();
    await expect(allergies.getByText('Already in Kincare')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Add 1 record' })).toBeVisible();
    await allergies.getByRole('checkbox', { name: /codeine/ }).uncheck();
    await expect(page.getByRole('button', { name: 'Nothing new to add' })).toBeDisabled();
  });

  test('a file about someone else is asked about, and a missing severity is asked for', async ({
    patientPage: page,
  }) => {
    await openImport(page);
    await readFile(page, 'discharge-summary.xml');
    await expect(
      page.getByText('The file is about Isabella Jones, and you are adding to Eve Betterhalf’s records.'),
    ).toBeVisible();
    const add = page.getByRole('button', { name: /^Add \d+ records$/ });
    await expect(add).toBeDisabled();
    await page.getByRole('checkbox', { name: 'These records are Eve Betterhalf’s: add them anyway' }).check();
    await expect(page.getByText('The file gives no severity')).toBeVisible();
    await add.click();
    await expect(page.getByText('Choose a severity before adding this allergy.')).toBeVisible();
    await checkScreen(page);
    await page.getByRole('combobox', { name: 'Severity (the file does not say)' }).selectOption('moderate');
    await add.click();
    await expect(page.getByRole('status').filter({ hasText: /^Added \d+ records/ })).toBeVisible();
  });

  test('a file that is not a record says so', async ({ patientPage: page }) => {
    await openImport(page);
    await page.getByLabel('Record file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Allergies: penicillin'),
    });
    await page.getByRole('button', { name: 'Read file' }).click();
    await expect(
      page.getByText('This file is not a health record Kincare can read.', { exact: false }),
    ).toBeVisible();
    await checkScreen(page);
  });
});

test.describe('a caregiver', () => {
  test.use({
    viewport: PHONE,
    patientName: 'Eve Betterhalf',
    caregiverName: 'Cara Importer',
    caregiverPermissions: ['ReadMedicalHistory', 'ReadPrescription', 'AddPrescription'],
  });

  test('adds the medicines their permission covers, and sees the history as the patient’s alone', async ({
    caregiverPage: page,
    patient: { token },
    request,
  }) => {
    await (await menuEntry(page, 'Medical History')).click();
    await page.getByRole('link', { name: 'Import records from a file' }).click();
    await expect(page).toHaveURL(/\/caregiver\/import$/);
    await readFile(page, 'ccd-1.xml');
    const allergies = page.getByRole('group', { name: /Allergies/ });
    await expect(
      allergies.getByText('Only the patient, or a caregiver with the permission to add these, can add them.'),
    ).toBeVisible();
    await expect(allergies.getByRole('checkbox', { name: /Penicillin/ })).toBeDisabled();
    await expect(
      page.getByRole('group', { name: /Medicines/ }).getByRole('checkbox', { name: /Atenolol/ }),
    ).toBeChecked();
    await checkScreen(page);
    await page.getByRole('button', { name: 'Add 2 records' }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Added 2 records/ })).toBeVisible();
    await syncNow(page);
    const medicines = async () => {
      const response = await request.get('/api/prescriptions?mode=all', { headers: bearer(token) });
      const { data } = (await response.json()) as { data: { medicine_name: string }[] };
      return data.map((prescription) => prescription.medicine_name).sort();
    };
    await expect.poll(medicines).toEqual(['Albuterol', 'Atenolol']);
    expect(await serverAllergies(request, token)).toEqual([]);
  });
});
