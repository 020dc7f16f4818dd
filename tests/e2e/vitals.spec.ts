import type { APIRequestContext, Locator, Page } from '@playwright/test';
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
} from './support';

// /vitals and /caregiver/vitals, the resource served from its declaration alone: a patient enters a blood
// pressure in two taps, is told plainly what is wrong with an impossible one, corrects and deletes a
// reading, and enters one with no signal that reaches the server once, after the reload and the
// reconnection; a caregiver with Read Vitals only sees the readings with no way to change them. Every
// state: axe, no sideways scrolling, tap targets of 44 px, at the phone's and the laptop's size.

const PHONE = { width: 390, height: 844 };

type ServerVital = { id: string; kind: string; systolic: number | null; diastolic: number | null };

async function serverVitals(request: APIRequestContext, token: string, patientId: string) {
  const response = await request.get(`/api/vitals?patient=${patientId}`, { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data as ServerVital[];
}

async function openVitals(page: Page) {
  await (await menuEntry(page, 'Vitals')).click();
  await expect(page).toHaveURL(/\/vitals$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Vitals' })).toBeVisible();
}

const main = (page: Page) => page.locator('main');
const readings = (page: Page) => page.getByTestId('vital-readings').getByRole('listitem');

async function checkScreen(page: Page, targets: Locator) {
  await atEachViewport(page, async () => {
    await expectNoAxeViolations(page);
    await expectNoHorizontalOverflow(page);
    await expectTapTargets(targets);
  });
}

async function enterBloodPressure(page: Page, top: string, bottom: string) {
  await page.getByTestId('vital-quick-add').getByRole('button', { name: 'Blood pressure' }).first().click();
  const sheet = page.getByRole('dialog', { name: 'New blood pressure reading' });
  const systolic = sheet.getByRole('textbox', { name: 'Top number (systolic)' });
  await expect(systolic).toBeFocused();
  await systolic.fill(top);
  await sheet.getByRole('textbox', { name: 'Bottom number (diastolic)' }).fill(bottom);
  return sheet;
}

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, caregiverName: 'Cora Reader', caregiverPermissions: ['ReadVitals'] });

  test('a patient enters, corrects and deletes a blood pressure reading', async ({
    patientPage: page,
    patient,
    request,
  }) => {
    await openVitals(page);
    await expect(page.getByText('No readings yet.')).toBeVisible();
    await checkScreen(page, main(page).locator('button, a'));

    // An impossible reading is refused in words, beside the field, and nothing is saved.
    let sheet = await enterBloodPressure(page, '80', '120');
    await sheet.getByRole('button', { name: 'Save' }).click();
    await expect(
      sheet.getByText('The bottom number (diastolic) must be lower than the top number (systolic).'),
    ).toBeVisible();
    await checkScreen(page, sheet.locator('button, input'));
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    await expect(readings(page)).toHaveCount(0);

    sheet = await enterBloodPressure(page, '128', '82');
    await sheet.getByRole('button', { name: 'Save' }).click();
    await expect(sheet).toBeHidden();
    await expect(readings(page)).toHaveCount(1);
    await expect(readings(page).first().getByTestId('reading-value')).toHaveText('128/82 mmHg');
    await expect
      .poll(async () => (await serverVitals(request, patient.token, patient.patientId)).length)
      .toBe(1);

    // Corrected: the server gets the new number.
    await readings(page)
      .first()
      .getByRole('button', { name: /^Edit blood pressure reading/ })
      .click();
    sheet = page.getByRole('dialog', { name: 'Edit blood pressure reading' });
    await sheet.getByRole('textbox', { name: 'Top number (systolic)' }).fill('132');
    await sheet.getByRole('button', { name: 'Save' }).click();
    await expect(readings(page).first().getByTestId('reading-value')).toHaveText('132/82 mmHg');
    await expect
      .poll(async () => (await serverVitals(request, patient.token, patient.patientId))[0]?.systolic)
      .toBe(132);
    await checkScreen(page, main(page).locator('button, a'));

    // Deleted, after a confirmation.
    await readings(page)
      .first()
      .getByRole('button', { name: /^Delete blood pressure reading/ })
      .click();
    await page
      .getByRole('dialog', { name: 'Delete reading' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText('No readings yet.')).toBeVisible();
    await expect
      .poll(async () => (await serverVitals(request, patient.token, patient.patientId)).length)
      .toBe(0);
  });

  test('a reading entered with no signal is kept through a reload and sent once when back online', async ({
    patientPage: page,
    patient,
    request,
  }) => {
    await waitForServiceWorker(page);
    await openVitals(page);
    await page.context().setOffline(true);
    const sheet = await enterBloodPressure(page, '141', '91');
    await sheet.getByRole('button', { name: 'Save' }).click();
    await expect(
      page.getByText('Reading saved on this device. It will be sent when you are back online.'),
    ).toBeVisible();
    await expect(readings(page).first().getByText('Waiting to send')).toBeVisible();

    await page.reload();
    await expect(readings(page)).toHaveCount(1);
    await expect(readings(page).first().getByTestId('reading-value')).toHaveText('141/91 mmHg');
    await checkScreen(page, main(page).locator('button, a'));
    expect(await serverVitals(request, patient.token, patient.patientId)).toEqual([]);

    await page.context().setOffline(false);
    await expect(readings(page).first().getByText('Waiting to send')).toBeHidden({ timeout: 20_000 });
    const onServer = await serverVitals(request, patient.token, patient.patientId);
    expect(onServer.map((vital) => [vital.systolic, vital.diastolic])).toEqual([[141, 91]]);
  });

  test('a caregiver with Read Vitals sees the readings and cannot change them', async ({
    patient,
    caregiver,
    page,
    request,
  }) => {
    const response = await request.post('/api/vitals', {
      headers: bearer(patient.token),
      data: {
        id: crypto.randomUUID(),
        patient_id: patient.patientId,
        kind: 'pulse',
        unit: 'bpm',
        value: 72,
        measured_at: new Date(Date.now() - 3_600_000).toISOString(),
        note: 'After a walk',
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    await signIn(page, caregiver);
    await (await menuEntry(page, 'Vitals')).click();
    await expect(page).toHaveURL(/\/caregiver\/vitals$/);
    await expect(readings(page)).toHaveCount(1);
    await expect(readings(page).first().getByTestId('reading-value')).toHaveText('72 bpm');
    await expect(page.getByTestId('vital-quick-add')).toHaveCount(0);
    await expect(main(page).getByRole('button', { name: /^(Edit|Delete) / })).toHaveCount(0);
    await checkScreen(page, main(page).locator('button, a'));
  });
});
