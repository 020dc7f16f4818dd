import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

export const PASSWORD = 'Healthy123';

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/** The newest message to `to` in the server's local mailbox (DATA_DIR/mail), waiting for it to arrive. */
export async function latestMailTo(to: string): Promise<string> {
  const dir = join(process.env.E2E_DATA_DIR ?? '', 'mail');
  let found: string | undefined;
  await expect
    .poll(() => {
      let files: string[] = [];
      try {
        files = readdirSync(dir)
          .filter((file) => file.includes(to))
          .sort();
      } catch {
        return false;
      }
      const last = files.at(-1);
      found = last ? readFileSync(join(dir, last), 'utf8') : undefined;
      return Boolean(found);
    })
    .toBe(true);
  return decodeQuotedPrintable(found ?? '');
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function verificationPath(mail: string): string {
  const match = /\/verify-email\/[A-Za-z0-9_-]+/.exec(mail);
  if (!match) throw new Error(`no verification link in:\n${mail}`);
  return match[0];
}

/** A verified account made through the API (the UI flow has its own test). */
export async function createVerifiedUser(
  request: APIRequestContext,
  role: 'Patient' | 'Caregiver',
  name = `${role} Tester`,
) {
  const email = uniqueEmail(role.toLowerCase());
  const registered = await request.post('/api/auth/register', {
    data: { name, email, password: PASSWORD, role, zip_code: '10001' },
  });
  expect(registered.status()).toBe(201);
  const token = verificationPath(await latestMailTo(email))
    .split('/')
    .pop();
  const verified = await request.post('/api/auth/verify-email', { data: { token } });
  expect(verified.ok()).toBe(true);
  return { email, name };
}

/** Signs in through the sign-in form, and accepts the beta policy the first time. */
export async function signInThroughUi(page: Page, email: string) {
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Logged in successfully')).toBeVisible();
  // First sign-in goes to the beta policy, later ones straight home.
  await page.waitForURL(/\/(beta-user-policy|dashboard|caregiver\/dashboard|unauthorized)$/);
  if (page.url().endsWith('/beta-user-policy')) {
    await expect(page.getByRole('checkbox')).toHaveCount(4);
    for (const box of await page.getByRole('checkbox').all()) await box.check();
    await page.getByRole('button', { name: 'I agree' }).click();
    await page.waitForURL(/\/(dashboard|caregiver\/dashboard|unauthorized)$/);
  }
}

/** axe finds no violations on the page as it is now. */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([]);
}

/** The names of this origin's IndexedDB databases. */
export async function indexedDbNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name ?? ''));
}

/** Waits until the service worker controls the page (after this the app opens offline). */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

/** The appointments the server holds for the signed-in user of this page (asked with the page's token). */
export async function serverAppointments(
  page: Page,
  request: APIRequestContext,
): Promise<{ id: string; appointment_title: string; location: string; notes: string }[]> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await request.get('/api/appointments', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return (await response.json()).data;
}

/** Fills and saves the new-appointment form (a time on the half hour, tomorrow). */
export async function addAppointmentThroughUi(page: Page, title: string) {
  await page.getByRole('button', { name: 'New appointment' }).click();
  const form = page.getByRole('form', { name: 'New appointment' });
  await form.getByRole('textbox', { name: 'Title' }).fill(title);
  const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
  const local = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}T10:30`;
  await form.getByLabel('Date and time').fill(local);
  await form.getByRole('button', { name: 'Add appointment' }).click();
  await expect(page.getByText('Appointment added')).toBeVisible();
}
