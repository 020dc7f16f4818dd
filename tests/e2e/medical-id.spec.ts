import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { checkScreen, seedRecords } from './records';
import { waitForServiceWorker } from './support';

// /medical-id: one tap from Home, what a first responder needs (the severe allergy first, conditions,
// medicines taken now, who to call), opened again with no signal after a reload; printing shows the
// wallet card alone. Each state: axe, no sideways scrolling, 44 px targets, at the phone's and the
// laptop's size.

const PHONE = { width: 390, height: 844 };

async function expectTheFacts(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Medical ID' })).toBeVisible();
  const allergies = page.getByRole('region', { name: 'Allergies' });
  await expect(allergies.getByRole('listitem').first()).toHaveText('Penicillin · Hives · Severe');
  await expect(page.getByRole('region', { name: 'Conditions' })).toContainText('Asthma');
  await expect(page.getByRole('region', { name: 'Medicines taken now' })).toContainText(
    'Metformin 500 mg: 8:00 AM, 8:00 PM',
  );
  await expect(page.getByRole('region', { name: 'Who to call' })).toContainText('Cora Carer');
  await expect(page.getByRole('group', { name: 'Wallet card' })).toContainText('Allergies: Penicillin');
}

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, patientName: 'Ida Ident' });

  test('a patient opens their medical ID from Home in one tap, offline too, and prints the wallet card alone', async ({
    patientPage: page,
    patient,
    caregiver,
    request,
  }) => {
    expect(caregiver.name).toBe('Cora Carer');
    await seedRecords(request, patient.token, patient.patientId ?? '');
    await page.reload();
    await page.getByRole('link', { name: 'Medical ID' }).click();
    await expect(page).toHaveURL(/\/medical-id$/);
    await expectTheFacts(page);
    await checkScreen(page);

    // No signal: opened again after a reload, from the device.
    await waitForServiceWorker(page);
    await page.context().setOffline(true);
    await page.reload();
    await expectTheFacts(page);
    await page.context().setOffline(false);

    // Printing: the wallet card alone, at a wallet's width.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('group', { name: 'Wallet card' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Medical ID' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print wallet card' })).toBeHidden();
    const width = await page
      .getByRole('group', { name: 'Wallet card' })
      .evaluate((card) => card.getBoundingClientRect().width);
    expect(Math.round(width)).toBe(Math.round((85.6 / 25.4) * 96));
    await page.emulateMedia({ media: 'screen' });
  });
});
