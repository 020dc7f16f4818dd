import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  PASSWORD,
  VIEWPORTS,
  atEachViewport,
  bearer,
  createVerifiedUser,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  indexedDbNames,
  latestMailTo,
  menuEntry,
  signIn,
  signInThroughUi,
  storedToken,
  type Account,
} from './support';

// Sessions live on the server: the profile lists where the person is signed in and ends any of those
// sessions; a device whose session was ended is signed out on its next call and forgets the person; 'Sign
// out of all devices' ends every one; and a password reset (the code sent again, the new password typed
// twice) needs the code's reset token. Service workers are blocked so that only the page calls the server,
// at steps the test chooses. Each journey runs once, on a phone; the screens are checked at both sizes.

test.use({ serviceWorkers: 'block' });

const replicaNames = async (page: Page) =>
  (await indexedDbNames(page)).filter((name) => name.startsWith('kincare-') && name !== 'kincare-session');

/** Everything this page keeps in localStorage and sessionStorage, as one text. */
const webStorage = (page: Page) =>
  page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));

/** A second device: a browser context of its own (its own storage), at the same size. */
async function secondDevice(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({
    viewport,
    baseURL: process.env.E2E_BASE_URL,
    serviceWorkers: 'block',
  });
  return { context, page: await context.newPage() };
}

/** The fixture's own sign-in through the API is not one of the person's devices here: it ends first. */
async function endApiSession(request: APIRequestContext, account: Account) {
  const ended = await request.post('/api/auth/logout', { headers: bearer(account.token) });
  expect(ended.ok()).toBe(true);
}

const signInsSection = (page: Page) =>
  page.locator('section', { has: page.getByRole('heading', { name: 'Signed-in devices' }) });

async function openProfile(page: Page) {
  await (await menuEntry(page, 'Profile')).click();
  await expect(page).toHaveURL(/\/profile$/);
}

/** The device's next call to the server (here the header's 'Sync now'). */
async function syncNow(page: Page) {
  await page.getByTestId('sync-status').click();
  await page.getByTestId('sync-status-panel').getByRole('button', { name: 'Sync now' }).click();
}

async function expectSignedOutAndForgotten(page: Page, name: string) {
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(() => replicaNames(page)).toEqual([]);
  expect(await storedToken(page)).toBeNull();
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('role')])).toEqual([
    null,
    null,
  ]);
  expect(await webStorage(page)).not.toContain(name);
}

test.describe('on a phone', () => {
  const viewport = VIEWPORTS[0];
  test.use({ viewport, patientName: 'Sam Sessions' });

  test("ending another device's session from the profile signs it out on its next call, and it forgets the person", async ({
    page,
    patient,
    context,
    browser,
    request,
  }) => {
    const { name } = patient;
    await endApiSession(request, patient);
    const other = await secondDevice(browser, viewport);
    try {
      await signIn(other.page, patient);
      await signIn(page, patient);
      const otherToken = await storedToken(other.page);
      expect(otherToken).toBeTruthy();
      // The token is kept in IndexedDB only.
      expect(await webStorage(page)).not.toContain((await storedToken(page)) ?? 'no token');

      await openProfile(page);
      const section = signInsSection(page);
      const rows = section.getByRole('list', { name: 'Signed-in devices' }).getByRole('listitem');
      await expect(rows).toHaveCount(2);
      const here = rows.filter({ hasText: 'This device' });
      await expect(here).toHaveCount(1);
      await expect(here).toContainText('Chrome on Linux');
      await expect(here).toContainText(/Signed in\s*\w{3}, \w{3} \d{2}, \d{4}, \d{1,2}:\d{2}/);
      await expect(here).toContainText(/Address\s*(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
      await expect(here.getByRole('button', { name: /^End session/ })).toHaveCount(0);
      const there = rows.filter({ hasNotText: 'This device' });
      await atEachViewport(page, async () => {
        await expectNoAxeViolations(page);
        await expectNoHorizontalOverflow(page, page.locator('main'), section);
        await expectTapTargets(section.getByRole('button'));
      });

      await there.getByRole('button', { name: /^End session/ }).click();
      await expect(page.getByText('Session ended.')).toBeVisible();
      await expect(rows).toHaveCount(1);
      const ended = await request.get('/api/auth/profile', {
        headers: { Authorization: `Bearer ${otherToken}` },
      });
      expect(ended.status()).toBe(401);

      // The other device still shows its pages; its next call is answered 401.
      await syncNow(other.page);
      await expect(other.page.getByText('Unauthorized', { exact: true })).toBeVisible();
      await expectSignedOutAndForgotten(other.page, name);
      await expectNoHorizontalOverflow(other.page);

      // This device stays signed in. Offline, the list says plainly that it needs the network.
      await context.setOffline(true);
      await expect(section).toContainText('Connect to the internet to see your signed-in devices.');
      await expect(section.getByRole('button')).toHaveCount(0);
      await expectNoHorizontalOverflow(page, section);
      await context.setOffline(false);
      await expect(rows).toHaveCount(1);
    } finally {
      await other.context.close();
    }
  });

  test("'Sign out of all devices' asks first, then signs out every device, this one too", async ({
    page,
    patient,
    browser,
    request,
  }) => {
    const { name } = patient;
    await endApiSession(request, patient);
    const other = await secondDevice(browser, viewport);
    try {
      await signIn(other.page, patient);
      await signIn(page, patient);
      const tokens = [await storedToken(page), await storedToken(other.page)];
      await openProfile(page);
      const section = signInsSection(page);
      await expect(section.getByRole('listitem')).toHaveCount(2);

      await section.getByRole('button', { name: 'Sign out of all devices' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign out of all devices?' });
      await expect(dialog).toContainText('Every device signed in to your account will be signed out');
      await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await atEachViewport(page, async () => {
        await expectNoAxeViolations(page);
        await expectNoHorizontalOverflow(page, dialog);
        await expectTapTargets(dialog.getByRole('button'));
      });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/profile$/);

      await section.getByRole('button', { name: 'Sign out of all devices' }).click();
      await dialog.getByRole('button', { name: 'Sign out of all devices' }).click();
      await expect(page.getByText('Signed out of all devices.')).toBeVisible();
      await expectSignedOutAndForgotten(page, name);
      for (const token of tokens) {
        const answer = await request.get('/api/auth/profile', {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(answer.status()).toBe(401);
      }

      await syncNow(other.page);
      await expect(other.page.getByText('Unauthorized', { exact: true })).toBeVisible();
      await expectSignedOutAndForgotten(other.page, name);
    } finally {
      await other.context.close();
    }
  });

  test("forgot password: the code can be sent again, the new password must be typed twice, and the reset needs the code's reset token", async ({
    page,
    request,
  }) => {
    const { email } = await createVerifiedUser(request, 'Patient', 'Rita Reset');
    const newPassword = 'Tangerine-Harbor-42';
    const codeIn = (mail: string) => /reset your Kincare password is (\d{6})/.exec(mail)?.[1] ?? '';
    const resetBodies: unknown[] = [];
    page.on('request', (sent) => {
      if (sent.url().endsWith('/api/auth/reset-password')) resetBodies.push(sent.postDataJSON());
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const form = page.getByRole('form', { name: 'Reset password' });
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByText('OTP send successfully!')).toBeVisible();
    await expect(form).toContainText(`We sent a 6-digit code to ${email}. It is valid for 10 minutes.`);
    await atEachViewport(page, () => expectNoHorizontalOverflow(page, form));
    let firstCode = '';
    await expect.poll(async () => (firstCode = codeIn(await latestMailTo(email)))).toMatch(/^\d{6}$/);

    // "Resend code" asks again (the same call, with its limits): a new code arrives.
    await form.getByRole('button', { name: 'Resend code' }).click();
    await expect(page.getByText('OTP send successfully!').last()).toBeVisible();
    let secondCode = '';
    // A fresh random code (the same six digits again: one chance in a million).
    await expect.poll(async () => (secondCode = codeIn(await latestMailTo(email)))).not.toBe(firstCode);
    await expectNoAxeViolations(page);
    await form.getByLabel('6-digit code').fill(secondCode);
    await form.getByRole('button', { name: 'Verify code' }).click();
    await expect(page.getByText('OTP verified successfully!')).toBeVisible();

    await form.getByRole('textbox', { name: 'New password', exact: true }).fill(newPassword);
    await form.getByRole('textbox', { name: 'Confirm password', exact: true }).fill(`${newPassword}!`);
    await form.getByRole('button', { name: 'Set new password' }).click();
    await expect(form.getByText('New password and confirm password do not match.')).toBeVisible();
    await form.getByRole('textbox', { name: 'Confirm password', exact: true }).fill(newPassword);
    await expectNoAxeViolations(page);
    await form.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('Reset password successfully!')).toBeVisible();
    expect(resetBodies).toHaveLength(1);
    const { resetToken } = resetBodies[0] as { resetToken?: unknown };
    expect(resetBodies[0]).toEqual({ email, newPassword, resetToken: expect.any(String) });
    // Held in memory only: nothing the page stores has it.
    expect(await webStorage(page)).not.toContain(String(resetToken));

    // The old password no longer works; the new one does.
    const old = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
    expect(old.status()).toBe(401);
    await signInThroughUi(page, email, newPassword);
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
