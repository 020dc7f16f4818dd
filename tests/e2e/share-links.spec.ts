import type { Browser, Page } from '@playwright/test';
import { encode } from 'uqr';
import { SHARE_LINK_MESSAGES } from '../../src/domain/share-links';
import { expect, test } from './fixtures';
import { checkScreen, seedRecords } from './records';

// Share links, as a patient and a doctor use them: the patient makes a link with a passcode from the
// medical ID, sees its QR code and copies it; a doctor on another phone, not signed in, opens it, gets the
// passcode wrong once, then reads the summary; the patient sees who opened it, turns it off, and the
// doctor's next try is told so. Offline, the patient is told a link needs a connection. Each state: axe,
// no sideways scrolling, 44 px targets, at the phone's and the laptop's size.

const PHONE = { width: 390, height: 844 };

/** A phone of someone else's: a browser of its own, nobody signed in. */
async function othersPhone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE });
  return context.newPage();
}

/** The path of the QR code `uqr` draws for `text`, as qr-code.tsx draws it. */
function qrPathOf(text: string): string {
  let drawn = '';
  encode(text, { ecc: 'M', border: 4 }).data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) drawn += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return drawn;
}

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, patientName: 'Sam Share' });

  test('a patient shares their summary by a link with a passcode, sees it opened, and turns it off', async ({
    patientPage: page,
    patient,
    request,
    browser,
  }) => {
    await seedRecords(request, patient.token, patient.patientId ?? '');
    await page.reload();
    await page.getByRole('link', { name: 'Medical ID' }).click();
    await page.getByRole('link', { name: 'Share by link' }).click();
    await expect(page).toHaveURL(/\/share-links$/);
    await expect(page.getByText('You have not shared a link yet.')).toBeVisible();
    await checkScreen(page);

    // A link needs a name; the form says so and keeps what was typed.
    await page.getByLabel('Passcode (optional)').fill('tulip-42');
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect(page.getByText(SHARE_LINK_MESSAGES.labelRequired)).toBeVisible();
    await expect(page.getByLabel('Passcode (optional)')).toHaveValue('tulip-42');

    await page.getByLabel('Who is it for?').fill('Dr. Lee, Mercy Clinic');
    await page.getByLabel('Works for').selectOption({ label: '7 days' });
    await page.getByRole('button', { name: 'Create link' }).click();
    const made = page.getByRole('region', { name: 'Code and link for Dr. Lee, Mercy Clinic' });
    await expect(made.getByRole('heading', { name: 'Your link for Dr. Lee, Mercy Clinic' })).toBeVisible();
    await expect(made).toContainText('They also need the passcode.');
    const url = await made.getByLabel('Link', { exact: true }).inputValue();
    expect(url).toMatch(/^http:\/\/[^/]+\/shl#shlink:\/[A-Za-z0-9_-]+$/);
    // The code on screen is the link's.
    const qr = made.getByRole('img', { name: 'QR code of the link for Dr. Lee, Mercy Clinic' });
    expect(await qr.locator('path').getAttribute('d')).toBe(qrPathOf(url));
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await made.getByRole('button', { name: 'Copy link' }).click();
    await expect(made.getByRole('status')).toHaveText('Link copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await expect(page.getByRole('listitem').filter({ hasText: 'Dr. Lee, Mercy Clinic' })).toContainText(
      'Open',
    );
    await checkScreen(page);

    // The doctor's phone: nobody signed in, the link opened as a camera would open it.
    const doctor = await othersPhone(browser);
    await doctor.goto(url);
    await expect(doctor.getByRole('heading', { name: 'Shared: Dr. Lee, Mercy Clinic' })).toBeVisible();
    await checkScreen(doctor);
    await doctor.getByLabel('Your name').fill('Dr. Lee');
    await doctor.getByRole('textbox', { name: 'Passcode', exact: true }).fill('tulip-41');
    await doctor.getByRole('button', { name: 'Open summary' }).click();
    await expect(doctor.getByText(SHARE_LINK_MESSAGES.passcodeWrong(9))).toBeVisible();
    await doctor.getByRole('textbox', { name: 'Passcode', exact: true }).fill('tulip-42');
    await doctor.getByRole('button', { name: 'Open summary' }).click();
    await expect(doctor.getByRole('heading', { level: 1, name: 'Sam Share' })).toBeVisible();
    await expect(doctor.getByRole('main')).toContainText('Metformin');
    await expect(doctor.getByRole('main')).toContainText('Penicillin');
    await expect(doctor.getByRole('main')).toContainText('Asthma');
    await expect(doctor.getByRole('main')).toContainText('it does not change when the records do');
    await checkScreen(doctor);

    // The patient sees who opened it.
    await page.reload();
    const entry = page.getByRole('listitem').filter({ hasText: 'Dr. Lee, Mercy Clinic' }).first();
    await expect(entry).toContainText('Opened once:');
    await expect(entry).toContainText('by Dr. Lee');
    await entry.getByRole('button', { name: 'Show code' }).click();
    expect(await entry.getByRole('img').locator('path').getAttribute('d')).toBe(qrPathOf(url));

    // Turned off: the doctor's next try is told so in words.
    await entry.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Turn off' }).click();
    await expect(entry).toContainText('Turned off');
    await expect(entry.getByRole('button', { name: 'Turn off' })).toHaveCount(0);
    const again = await othersPhone(browser);
    await again.goto(url);
    await again.getByLabel('Your name').fill('Dr. Lee');
    await again.getByRole('textbox', { name: 'Passcode', exact: true }).fill('tulip-42');
    await again.getByRole('button', { name: 'Open summary' }).click();
    await expect(again.getByRole('alert')).toHaveText(SHARE_LINK_MESSAGES.revoked);

    // Offline: the list as last seen, and plainly no new link.
    await page.context().setOffline(true);
    await page.reload();
    await expect(page.getByText(SHARE_LINK_MESSAGES.offline)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create link' })).toBeDisabled();
    await expect(
      page.getByRole('listitem').filter({ hasText: 'Dr. Lee, Mercy Clinic' }).first(),
    ).toContainText('Turned off');
    await page.context().setOffline(false);
    await doctor.context().close();
    await again.context().close();
  });

  test('a link without a passcode opens at once; a cut-off link says so', async ({
    patientPage: page,
    patient,
    request,
    browser,
  }) => {
    await seedRecords(request, patient.token, patient.patientId ?? '');
    await page.goto('/share-links');
    await page.getByLabel('Who is it for?').fill('Urgent care');
    await page.getByLabel('Works for').selectOption({ label: '1 hour' });
    await page.getByRole('button', { name: 'Create link' }).click();
    const url = await page.getByLabel('Link', { exact: true }).inputValue();

    const clinic = await othersPhone(browser);
    await clinic.goto(url);
    await expect(clinic.getByRole('textbox', { name: 'Passcode', exact: true })).toHaveCount(0);
    // With no signal the page says why it cannot open the summary, and offers nothing to tap in vain.
    await clinic.context().setOffline(true);
    await expect(clinic.getByText(SHARE_LINK_MESSAGES.openOffline)).toBeVisible();
    await expect(clinic.getByRole('button', { name: 'Open summary' })).toBeDisabled();
    await clinic.context().setOffline(false);
    // Who is opening it must be said.
    await clinic.getByRole('button', { name: 'Open summary' }).click();
    await expect(clinic.getByText(SHARE_LINK_MESSAGES.recipientRequired)).toBeVisible();
    await clinic.getByLabel('Your name').fill('Urgent Care Nurse');
    await clinic.getByRole('button', { name: 'Open summary' }).click();
    await expect(clinic.getByRole('heading', { level: 1, name: 'Sam Share' })).toBeVisible();
    // With the phone's text at 200% the summary still reflows: nothing scrolls sideways.
    await clinic.addStyleTag({ content: 'html { font-size: 200% !important; }' });
    await expect
      .poll(() => clinic.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(PHONE.width);

    await clinic.goto(url.slice(0, -12));
    await expect(clinic.getByRole('alert')).toHaveText(SHARE_LINK_MESSAGES.notALink);
    await checkScreen(clinic);
    await clinic.context().close();
  });
});
