import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, expectNoAxeViolations, signIn, waitForServiceWorker } from './support';

/** A new password the strength check accepts. */
const NEW_PASSWORD = 'Marigold-Canyon-73';

test('the profile page shows and updates the profile, and changes the password', async ({
  patientPage: page,
  patient: { email },
  request,
}) => {
  await page.getByRole('link', { name: 'Profile' }).first().click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  const form = page.getByRole('form', { name: 'Update profile' });
  await form.getByLabel('Phone').fill('12');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByText('Enter a valid phone number (10 to 15 digits).')).toBeVisible();
  await form
    .getByLabel(/^Profile photo/)
    .setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
  await expect(form.getByText('Profile photo must be a PNG, JPEG or WebP image.')).toBeVisible();
  await form.getByLabel(/^Profile photo/).setInputFiles([]);
  await expect(form.getByText('Profile photo must be a PNG, JPEG or WebP image.')).toBeHidden();
  await form.getByLabel('Phone').fill('(555) 123-4567');
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Patricia Patient');
  await form.getByLabel('Birth date').fill('1980-05-17');
  await form.getByLabel('Gender').selectOption('Female');
  await form.getByLabel('Race').selectOption('Asian');
  await form.getByLabel('Ethnicity').selectOption('Not Hispanic or Not Latino');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile updated successfully')).toBeVisible();
  await expect(page.getByTestId('greeting')).toContainText('Patricia Patient');
  await expect(page.getByText(/^\d+$/).first()).toBeVisible(); // the age, computed from the birth date
  await page.reload();
  await expect(form.getByLabel('Gender')).toHaveValue('Female');

  const change = page.getByRole('form', { name: 'Change password' });
  await change.getByLabel('Old password').fill('wrong-password1');
  await change.getByLabel('New password').fill(NEW_PASSWORD);
  await change.getByLabel('Confirm password').fill(`${NEW_PASSWORD}x`);
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change.getByText('New password and confirm password do not match.')).toBeVisible();
  await change.getByLabel('Confirm password').fill(NEW_PASSWORD);
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change.getByRole('alert')).toContainText('The old password is wrong.');
  await change.getByLabel('Old password').fill(PASSWORD);
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed successfully')).toBeVisible();
  // The server ended every other session: the page says so.
  await expect(change.getByRole('status')).toContainText('we signed you out on your other devices');
  // This device got a fresh token: it stays signed in.
  await page.reload();
  await expect(page.getByTestId('greeting')).toContainText('Patricia Patient');
  const relogin = await request.post('/api/auth/login', { data: { email, password: NEW_PASSWORD } });
  expect(relogin.ok()).toBe(true);
});

/** A real photo-sized PNG, drawn by the browser. */
async function bigPhoto(page: Page, width: number, height: number): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ([w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      const image = context.createImageData(w, h);
      let seed = 20260707; // a pseudo-random picture: it does not compress, like a real photo
      for (let i = 0; i < image.data.length; i += 4) {
        seed = (seed * 1664525 + 1013904223) >>> 0;
        image.data[i] = seed & 0xff;
        image.data[i + 1] = (seed >>> 8) & 0xff;
        image.data[i + 2] = (seed >>> 16) & 0xff;
        image.data[i + 3] = 255;
      }
      context.putImageData(image, 0, 0);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (!blob) throw new Error('no blob');
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) {
        binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      }
      return btoa(binary);
    },
    [width, height] as const,
  );
  return Buffer.from(base64, 'base64');
}

test('a profile photo is made smaller on the device, previewed, and sent with a progress bar', async ({
  page,
  patient,
}) => {
  await signIn(page, patient, '/profile');
  const form = page.getByRole('form', { name: 'Update profile' });
  const original = await bigPhoto(page, 3000, 2000);
  expect(original.length).toBeGreaterThan(1_000_000);
  await form
    .getByLabel(/^Profile photo/)
    .setInputFiles({ name: 'holiday.png', mimeType: 'image/png', buffer: original });

  const preview = form.getByRole('img', { name: 'Preview of your new profile photo' });
  await expect(preview).toBeVisible();
  const size = await preview.evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight]);
  expect(size).toEqual([1024, 683]);
  await expectNoAxeViolations(page);

  // What is sent: the smaller WebP, not the original; the progress bar shows while it goes (the request
  // is held until the test has seen it).
  let sentBytes = 0;
  let sentType = '';
  let release: () => void = () => undefined;
  const seen = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/update-profile', async (route) => {
    const body = route.request().postDataBuffer() ?? Buffer.alloc(0);
    sentBytes = body.length;
    sentType = /Content-Type: (image\/[a-z]+)/.exec(body.toString('latin1'))?.[1] ?? '';
    await seen;
    await route.continue();
  });
  await form.getByRole('button', { name: 'Save profile' }).click();
  const progress = form.getByRole('progressbar');
  await expect(progress).toBeVisible();
  await expect(form.getByText(/^Sending your photo: \d+%$/)).toBeVisible();
  release();
  await expect(page.getByText('Profile updated successfully')).toBeVisible();
  await expect(progress).toBeHidden();
  expect(sentType).toBe('image/webp');
  expect(sentBytes).toBeLessThan(original.length / 4);

  // The stored photo is the smaller one.
  const stored = page.getByRole('img', { name: 'Your profile photo' });
  await expect(stored).toBeVisible();
  await expect.poll(() => stored.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1024);
});

test('the offline message of the profile form goes away when the connection is back', async ({
  page,
  patient,
  context,
}) => {
  await signIn(page, patient, '/profile');
  await waitForServiceWorker(page); // what the page loads on demand, offline
  const form = page.getByRole('form', { name: 'Update profile' });
  // The person sees the form, then loses the signal (the page's own code has arrived by then).
  await expect(form.getByRole('button', { name: 'Save profile' })).toBeVisible();
  await context.setOffline(true);
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'You are offline. Updating your profile needs a connection.',
  );
  await context.setOffline(false);
  await expect(form.getByRole('alert')).toHaveCount(0);
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
])
  test(`choosing a theme applies it where the person is, without moving the page (${viewport.width} px)`, async ({
    patientPage: page,
  }) => {
    await page.setViewportSize(viewport);
    await page.getByRole('link', { name: 'Profile' }).first().click();
    await expect(page).toHaveURL(/\/profile$/);
    const appearance = page.getByRole('group', { name: 'Appearance' });
    await appearance.scrollIntoViewIfNeeded();
    const before = await appearance.boundingBox();
    for (const [choice, theme] of [
      ['Dark', 'dark'],
      ['Light', 'light'],
    ] as const) {
      await appearance.getByText(choice, { exact: true }).click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      const after = await appearance.boundingBox();
      // The hidden radio that took the focus lies inside its label: the page has no reason to scroll.
      expect(Math.abs((after?.y ?? 0) - (before?.y ?? 0)), `${choice}: the choices moved`).toBeLessThan(2);
    }
    await expect(appearance.getByRole('radio', { name: 'Light' })).toBeChecked();
    await expectNoAxeViolations(page);
  });
