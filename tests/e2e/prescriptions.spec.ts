import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { TINY_PNG } from '../fixtures/images';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  bearer,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  menuEntry,
  signIn,
  waitForServiceWorker,
  type Account,
} from './support';

// /prescriptions: the list from the device's table with its filters, the add / edit
// form in a sheet (dose times suggested from the directions), status changes and delete with a
// confirmation, all of it offline too; a caregiver who may only read; and reading a label photo.

const ADDED = 'Prescription added successfully!';
const UPDATED = 'Prescription updated successfully!';
const DELETED = 'Prescription deleted successfully!';
const OCR_OFFLINE =
  'Reading a label photo needs a connection. You can type the details and attach the photo now.';
const OCR_REVIEW = 'Please review the details read from the photo before saving.';
const PHONE = { width: 390, height: 844 };
const DESK = { width: 1280, height: 800 };

type ServerPrescription = {
  id: string;
  medicine_name: string;
  strength: string;
  status: string;
  times: string[];
  attachment_key: string | null;
};

/** The prescriptions the server holds for the account of `token` (every one, not only current). */
async function serverPrescriptions(request: APIRequestContext, token: string): Promise<ServerPrescription[]> {
  const response = await request.get('/api/prescriptions?mode=all', { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data as ServerPrescription[];
}

/** Today on this machine (the browser's zone is the test's), as the form's date input holds it. */
function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** Through the menu, as a person goes there: the phone's 'Medicines' tab, the sidebar's 'Prescriptions'. */
async function openPrescriptions(page: Page, path: RegExp = /\/prescriptions$/) {
  if ((page.viewportSize()?.width ?? 1280) < 768)
    await page.getByTestId('tab-bar').getByRole('link', { name: 'Medicines' }).click();
  else await (await menuEntry(page, 'Prescriptions')).click();
  await expect(page).toHaveURL(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Prescriptions' })).toBeVisible();
}

const listSection = (page: Page) => page.locator('section[aria-labelledby="prescriptions-list-heading"]');
const card = (page: Page, label: string) =>
  page
    .locator('[data-prescription-id]')
    .filter({ has: page.getByRole('heading', { name: label, exact: true }) });
const filters = (page: Page) => page.getByRole('form', { name: 'Filter prescriptions' });

/** The checks every state of the screen gets: axe, no sideways scrolling, tap targets of 44 px. */
async function checkScreen(page: Page, targets: Locator) {
  await expectNoAxeViolations(page);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(targets);
}

/** The list's buttons and fields (the schedule above it is another screen's, checked in its own spec). */
const listTargets = (page: Page) => listSection(page).locator('button, select, input');
/**
 * The form's buttons and fields (inside the form: the sheet's focus guards are 1 px on purpose);
 * checkboxes are reached through their 44 px labels.
 */
const sheetTargets = (sheet: Locator) =>
  sheet.getByRole('form').locator('button, select, input:not([type="checkbox"])');

/** A prescription the patient holds, made through the API. */
async function prescriptionThroughApi(
  request: APIRequestContext,
  { token, patientId }: Account,
  fields: {
    medicine_name: string;
    strength: string;
    directions: string;
    times: string[];
    as_needed?: boolean;
  },
) {
  const created = await request.post('/api/prescriptions', {
    headers: bearer(token),
    data: {
      patient_id: patientId,
      start_date: localToday(),
      time_zone: 'UTC',
      quantity: 30,
      refills: 1,
      ...fields,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
}

test.describe('at 390x844', () => {
  test.use({ viewport: PHONE, caregiverName: 'Cora Reader', caregiverPermissions: ['ReadPrescription'] });

  test('a patient adds a prescription by typing, edits it, puts it on hold, filters and deletes it', async ({
    patientPage: page,
    patient: { token },
    request,
  }) => {
    await openPrescriptions(page);
    await expect(page.getByText('No prescriptions yet.')).toBeVisible();
    await checkScreen(page, listTargets(page));

    // The empty list leads to the form, which opens as a sheet with the focus in its first field.
    await page.getByRole('button', { name: 'Add your first prescription' }).click();
    const sheet = page.getByRole('dialog', { name: 'New prescription' });
    const form = sheet.getByRole('form', { name: 'New prescription' });
    const name = form.getByRole('textbox', { name: 'Medicine name' });
    await expect(name).toBeFocused();
    await expect(form.getByLabel('Start date')).toHaveValue(localToday());
    await expect(form.getByRole('checkbox', { name: 'Reminders at each dose time' })).toBeChecked();
    await expect(form.getByLabel('Alert caregivers if a dose is not marked within N minutes')).toHaveValue(
      '60',
    );

    // Saving with nothing typed names what is missing, in the domain's words, and goes to the first one.
    await form.getByRole('button', { name: 'Add prescription' }).click();
    await expect(form.getByText('Medicine name is required.')).toBeVisible();
    await expect(form.getByText('Add at least one dose time, or mark it as needed.')).toBeVisible();
    await expect(name).toBeFocused();

    // The directions suggest the dose times.
    await name.fill('Metformin');
    await form.getByRole('textbox', { name: 'Strength' }).fill('500 mg');
    await form.getByRole('textbox', { name: 'Directions' }).fill('Take 1 tablet by mouth twice daily');
    await expect(form.getByLabel('Dose time 1', { exact: true })).toHaveValue('08:00');
    await expect(form.getByLabel('Dose time 2', { exact: true })).toHaveValue('20:00');
    await expect(form.getByLabel(/^Dose time \d+$/)).toHaveCount(2);
    await expect(form.getByTestId('directions-summary')).toContainText('Twice a day');
    await expect(form.getByLabel('Dose time 1', { exact: true })).toHaveAttribute('step', '300');
    await form.getByRole('textbox', { name: 'Quantity' }).fill('60');
    await form.getByRole('textbox', { name: 'Refills' }).fill('2');
    await expect(form.getByText('Medicine name is required.')).toHaveCount(0);
    await checkScreen(page, sheetTargets(sheet));
    await form.getByRole('button', { name: 'Add prescription' }).click();
    await expect(page.getByText(ADDED)).toBeVisible();
    await expect(sheet).toBeHidden();

    // The saved card takes the focus and shows it all in words.
    const metformin = card(page, 'Metformin 500 mg');
    await expect(metformin).toBeFocused();
    // The strength is in the card's heading, and said once.
    expect((await metformin.textContent())?.match(/500 mg/g)?.length).toBe(1);
    await expect(metformin).toContainText('Active');
    await expect(metformin.getByRole('list', { name: 'Dose times of Metformin 500 mg' })).toHaveText(
      /(8:00 AM|08:00)\s*(8:00 PM|20:00)/,
    );
    await expect(metformin).toContainText('Quantity 60 · 2 refills');
    await expect(metformin).toContainText('Take 1 tablet by mouth twice daily');
    await checkScreen(page, listTargets(page));
    await expect
      .poll(async () =>
        (await serverPrescriptions(request, token)).map((row) => [row.medicine_name, row.times]),
      )
      .toEqual([['Metformin', ['08:00', '20:00']]]);

    // Edit.
    await page.getByRole('button', { name: 'Edit Metformin 500 mg' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit prescription' });
    await expect(edit.getByRole('textbox', { name: 'Medicine name' })).toHaveValue('Metformin');
    await edit.getByRole('textbox', { name: 'Strength' }).fill('1000 mg');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText(UPDATED)).toBeVisible();
    const edited = card(page, 'Metformin 1000 mg');
    await expect(edited).toBeFocused();

    // Put on hold, then it offers Resume.
    await page.getByRole('button', { name: 'Put on hold: Metformin 1000 mg' }).click();
    await expect(edited).toContainText('On hold');
    await expect(page.getByRole('button', { name: 'Resume: Metformin 1000 mg' })).toBeVisible();
    await expect
      .poll(async () => (await serverPrescriptions(request, token)).map((row) => [row.strength, row.status]))
      .toEqual([['1000 mg', 'on_hold']]);
    await checkScreen(page, listTargets(page));

    // Filter by status: 'all' is no filter, and Clear Filters goes back to current and upcoming.
    await filters(page).getByLabel('Status').selectOption('completed');
    await expect(page.getByText('No prescriptions match these filters.')).toBeVisible();
    await expect(edited).toHaveCount(0);
    await checkScreen(page, listTargets(page));
    await filters(page).getByLabel('Status').selectOption('on_hold');
    await expect(page.getByRole('heading', { level: 2, name: 'Filtered prescriptions' })).toBeVisible();
    await expect(edited).toBeVisible();
    await filters(page).getByRole('button', { name: 'Clear Filters' }).click();
    await expect(filters(page).getByLabel('Status')).toHaveValue('');
    await expect(page.getByRole('heading', { level: 2, name: 'Current and upcoming' })).toBeVisible();
    await expect(edited).toBeVisible();

    // Delete asks first; Cancel keeps it.
    await page.getByRole('button', { name: 'Delete Metformin 1000 mg' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete prescription?' });
    await expect(confirm).toContainText(
      'This removes Metformin 1000 mg and its schedule. Marked doses stay in the history.',
    );
    await checkScreen(page, confirm.getByRole('button'));
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(edited).toBeVisible();
    await page.getByRole('button', { name: 'Delete Metformin 1000 mg' }).click();
    await page
      .getByRole('dialog', { name: 'Delete prescription?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText(DELETED)).toBeVisible();
    await expect(page.getByText('No prescriptions yet.')).toBeVisible();
    await expect
      .poll(async () => (await serverPrescriptions(request, token)).length, { timeout: 10_000 })
      .toBe(0);
  });

  test('offline: a prescription added without a signal stays after a reload, and reaches the server online', async ({
    patientPage: page,
    patient: { token },
    context,
    request,
  }) => {
    await waitForServiceWorker(page);
    await openPrescriptions(page);
    await expect(page.getByText('No prescriptions yet.')).toBeVisible();

    await context.setOffline(true);
    await expect(page.getByTestId('sync-status')).toContainText('Offline');
    await page.getByRole('button', { name: 'Add your first prescription' }).click();
    const sheet = page.getByRole('dialog', { name: 'New prescription' });
    await sheet.getByRole('textbox', { name: 'Medicine name' }).fill('Amoxicillin');
    await sheet.getByRole('textbox', { name: 'Strength' }).fill('250 mg');
    await sheet.getByRole('textbox', { name: 'Directions' }).fill('Take 1 capsule every 8 hours');
    await expect(sheet.getByLabel(/^Dose time \d+$/)).toHaveCount(3);

    // Reading the label needs a connection: choosing the photo says so at once and keeps what was typed;
    // the photo still goes.
    await sheet
      .getByLabel('Label photo', { exact: true })
      .setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: TINY_PNG });
    await expect(sheet.getByRole('img', { name: 'The chosen label photo' })).toBeVisible();
    await expect(sheet.getByRole('alert').filter({ hasText: OCR_OFFLINE })).toBeVisible();
    await expect(sheet.getByRole('textbox', { name: 'Medicine name' })).toHaveValue('Amoxicillin');
    await checkScreen(page, sheetTargets(sheet));
    await sheet.getByRole('button', { name: 'Add prescription' }).click();
    await expect(page.getByText(ADDED)).toBeVisible();
    const amoxicillin = card(page, 'Amoxicillin 250 mg');
    await expect(amoxicillin).toContainText('Not synced yet');

    // A reload with no signal: the app and the prescription come from the device.
    await page.reload();
    await expect(amoxicillin).toBeVisible();
    await expect(amoxicillin.getByRole('button', { name: /View label photo/ })).toBeVisible();
    await checkScreen(page, listTargets(page));

    await context.setOffline(false);
    await expect
      .poll(
        async () =>
          (await serverPrescriptions(request, token)).map((row) => ({
            name: row.medicine_name,
            strength: row.strength,
            doses: row.times.length,
            photo: row.attachment_key !== null && !row.attachment_key.startsWith('blob:'),
          })),
        { timeout: 15_000 },
      )
      .toEqual([{ name: 'Amoxicillin', strength: '250 mg', doses: 3, photo: true }]);
    await expect(amoxicillin).not.toContainText('Not synced yet');
  });

  test('a caregiver with Read Prescription only sees the list, without add, edit, status or delete', async ({
    page,
    patient,
    caregiver,
    request,
  }) => {
    await prescriptionThroughApi(request, patient, {
      medicine_name: 'Lisinopril',
      strength: '10 mg',
      directions: 'Take 1 tablet by mouth once daily',
      times: ['08:00'],
    });

    await signIn(page, caregiver);
    await openPrescriptions(page, /\/caregiver\/prescriptions$/);
    const lisinopril = card(page, 'Lisinopril 10 mg');
    await expect(lisinopril).toBeVisible();
    await expect(lisinopril).toContainText(/8:00 AM|08:00/);
    await expect(lisinopril).toContainText('Active');
    await expect(listSection(page).getByRole('button', { name: /Add/ })).toHaveCount(0);
    await expect(lisinopril.getByRole('button')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit Lisinopril 10 mg' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete Lisinopril 10 mg' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Put on hold/ })).toHaveCount(0);
    await checkScreen(page, listTargets(page));
  });
});

test.describe('at 1280x800', () => {
  test.use({ viewport: DESK });

  test('a patient with prescriptions sees them as cards and opens the form as a dialog', async ({
    page,
    patient,
    request,
  }) => {
    await prescriptionThroughApi(request, patient, {
      medicine_name: 'Atorvastatin',
      strength: '20 mg',
      directions: 'Take 1 tablet by mouth at bedtime',
      times: ['22:00'],
    });
    await prescriptionThroughApi(request, patient, {
      medicine_name: 'Ibuprofen',
      strength: '400 mg',
      directions: 'Take 1 tablet every 6 hours as needed for pain',
      times: [],
      as_needed: true,
    });
    await signIn(page, patient);
    await openPrescriptions(page);
    await expect(card(page, 'Atorvastatin 20 mg')).toContainText(/10:00 PM|22:00/);
    expect((await card(page, 'Atorvastatin 20 mg').textContent())?.match(/20 mg/g)?.length).toBe(1);
    // No fixed times: it says so in words.
    await expect(card(page, 'Ibuprofen 400 mg')).toContainText('As needed');
    await checkScreen(page, listTargets(page));

    await listSection(page).getByRole('button', { name: 'Add prescription' }).click();
    const sheet = page.getByRole('dialog', { name: 'New prescription' });
    await expect(sheet.getByRole('textbox', { name: 'Medicine name' })).toBeFocused();
    // Take as needed: no fixed times are asked for.
    await sheet.getByRole('textbox', { name: 'Medicine name' }).fill('Cetirizine');
    await sheet.getByRole('checkbox', { name: 'Take as needed (no fixed times)' }).check();
    await checkScreen(page, sheetTargets(sheet));
    await sheet.getByRole('button', { name: 'Add prescription' }).click();
    await expect(page.getByText(ADDED)).toBeVisible();
    await expect(card(page, 'Cetirizine')).toBeFocused();
    await expect(card(page, 'Cetirizine')).toContainText('As needed');
  });
});

// Reading a label photo: the server's POST /api/prescriptions/ocr (tesseract, offline) reads a label drawn in
// the browser, so no image is shipped.
test.describe('reading a label photo', () => {
  test.use({ viewport: PHONE });

  test('online: the photo fills the form in for review, times from its directions', async ({
    patientPage: page,
    patient: { token },
    request,
  }) => {
    test.setTimeout(120_000);
    await openPrescriptions(page);
    // A pharmacy label, drawn on a canvas in large clear type and taken as a PNG.
    const label = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 1400;
      canvas.height = 820;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.fillStyle = '#000000';
      context.font = '56px sans-serif';
      const lines = [
        'CITY PHARMACY',
        'Rx# 1234567',
        'METFORMIN 500 MG TABLET',
        'Take 1 tablet by mouth twice daily',
        'Qty: 60',
        'Refills: 2',
      ];
      lines.forEach((line, index) => context.fillText(line, 40, 90 + index * 100));
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (!blob) throw new Error('no PNG');
      return Array.from(new Uint8Array(await blob.arrayBuffer()));
    });
    await page.getByRole('button', { name: 'Add your first prescription' }).click();
    const sheet = page.getByRole('dialog', { name: 'New prescription' });
    const photoField = sheet.getByLabel('Label photo', { exact: true });
    // On a phone the field opens the camera itself, and the reading starts once the photo is taken.
    await expect(photoField).toHaveAttribute('capture', 'environment');
    await photoField.setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: Buffer.from(label) });
    await expect(sheet.getByText(OCR_REVIEW)).toBeVisible({ timeout: 60_000 });
    await expect(sheet.getByRole('textbox', { name: 'Medicine name' })).toHaveValue(/metformin/i);
    await expect(sheet.getByRole('textbox', { name: 'Strength' })).toHaveValue(/500\s*mg/i);
    await expect(sheet.getByLabel('Dose time 1', { exact: true })).toHaveValue('08:00');
    await expect(sheet.getByLabel('Dose time 2', { exact: true })).toHaveValue('20:00');
    await expect(sheet.getByRole('textbox', { name: 'Quantity' })).toHaveValue('60');
    await expect(sheet.getByRole('textbox', { name: 'Refills' })).toHaveValue('2');
    await checkScreen(page, sheetTargets(sheet));

    // Cancel on a form filled from the photo asks first, at both sizes; Keep editing loses nothing.
    await atEachViewport(page, async () => {
      await sheet.getByRole('button', { name: 'Cancel' }).click();
      const ask = page.getByRole('dialog', { name: 'Discard this prescription?' });
      await expect(ask).toContainText('The details read from the label photo are not saved yet.');
      await expect(ask.getByRole('button', { name: 'Keep editing' })).toBeFocused();
      await checkScreen(page, ask.getByRole('button'));
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      await expect(ask).toBeHidden();
      await expect(sheet.getByRole('textbox', { name: 'Medicine name' })).toHaveValue(/metformin/i);
    });
    await sheet.getByRole('button', { name: 'Add prescription' }).click();
    await expect(page.getByText(ADDED)).toBeVisible();
    await expect
      .poll(async () => (await serverPrescriptions(request, token)).map((row) => row.attachment_key !== null))
      .toEqual([true]);
  });
});
