import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  addAppointmentThroughUi,
  appointmentTitlesOf,
  atEachViewport,
  createAccount,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  outboxSize,
  signIn,
  syncNow,
  type Account,
} from './support';

// The beta policy is a gate (src/app/README.md): until a person accepts it, the signed-in app is the policy,
// the legal pages and signing out; no menu, no tab bar, no screen where a change could be typed and then
// refused. A change made before it was accepted (offline in an older app that did not ask) is kept on the
// device, never refused, and sent once the policy is accepted. Afterwards Profile links to the policy.

// Only the page syncs, at the steps the test chooses (the worker's replay has tests of its own).
test.use({ serviceWorkers: 'block' });

const POLICY = /\/beta-user-policy$/;

async function newcomer(request: APIRequestContext, name: string): Promise<Account> {
  return createAccount(request, 'Patient', name, { acceptPolicy: false });
}

async function acceptPolicy(page: Page) {
  for (const box of await page.getByRole('checkbox').all()) await box.check();
  await page.getByRole('button', { name: 'I agree' }).click();
}

test('until the policy is accepted, only the policy, the legal pages and signing out can be reached', async ({
  page,
  request,
}) => {
  const person = await newcomer(request, 'Gita Gate');
  await signIn(page, person);
  await expect(page).toHaveURL(POLICY);
  await expect(page.getByRole('heading', { level: 1, name: 'Beta User Policy' })).toBeVisible();

  await atEachViewport(page, async () => {
    await expect(page.getByTestId('tab-bar')).toHaveCount(0);
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Legal' }).getByRole('link')).toHaveText([
      'Terms of Use',
      'Privacy Policy',
    ]);
    await expectNoHorizontalOverflow(page);
    await expectTapTargets(page.locator('button:visible, footer a:visible'));
    // Every statement's box is the same size, however long the statement beside it; each row is a
    // 44 px target.
    const boxes = await page.getByRole('checkbox').evaluateAll((inputs) =>
      inputs.map((input) => {
        const { width, height } = input.getBoundingClientRect();
        return `${Math.round(width)}x${Math.round(height)}`;
      }),
    );
    expect(boxes.length).toBeGreaterThan(1);
    expect(new Set(boxes).size, boxes.join(', ')).toBe(1);
    await expectTapTargets(page.locator('form[aria-label="Beta policy acknowledgements"] label'));
    await expectNoAxeViolations(page);
  });

  // Typed or bookmarked addresses lead back to the policy; no screen of records opens meanwhile.
  for (const path of ['/appointments', '/prescriptions', '/profile']) {
    await page.goto(path);
    await expect(page).toHaveURL(POLICY);
    await expect(page.getByRole('heading', { level: 1, name: 'Beta User Policy' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New appointment' })).toHaveCount(0);
  }

  // The legal pages the policy points to open, and lead back.
  await page.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: 'Terms of Use' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Terms/ })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(POLICY);

  // Signing out works from the gate.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a change made before the policy was accepted waits on the device and is sent once it is accepted', async ({
  page,
  context,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const person = await newcomer(request, 'Olga Older');
  // The device's copy of the profile says accepted: an older app that never showed the policy.
  await signIn(page, {
    ...person,
    profile: { ...person.profile, beta_policy_accepted_at: '2026-01-05T10:00:00.000Z' },
  });
  // Opened inside the app, so its code is in this document (no service worker here to serve it offline).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Appointments' }).click();
  await expect(page.getByRole('button', { name: 'New appointment' })).toBeVisible();
  await context.setOffline(true);
  await addAppointmentThroughUi(page, 'Eye test before the policy');

  // Back online, the server refuses the change until the policy is accepted: the device keeps it and
  // shows the policy, saying the change waits for it.
  await context.setOffline(false);
  await syncNow(page);
  await expect(page).toHaveURL(POLICY);
  const waiting = page.getByTestId('changes-waiting-for-policy');
  await expect(waiting).toHaveText(
    '1 change you made on this device is kept here. It is sent as soon as you accept this policy.',
  );
  expect(await outboxSize(page, person.userId)).toBe(1);
  expect(await appointmentTitlesOf(request, person.token)).toEqual([]);
  await atEachViewport(page, async () => {
    await expect(waiting).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolations(page);
  });

  await acceptPolicy(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect
    .poll(() => appointmentTitlesOf(request, person.token), { timeout: 15_000 })
    .toEqual(['Eye test before the policy']);
  await expect.poll(() => outboxSize(page, person.userId)).toBe(0);
  // Nothing was refused: the sync status names no refused change.
  await expect(page.getByTestId('sync-status')).not.toContainText('refused');

  // The policy can be read again from Profile.
  await page.goto('/profile');
  await page.getByRole('link', { name: 'Read the Beta User Policy' }).click();
  await expect(page).toHaveURL(POLICY);
  await expect(page.getByRole('status').filter({ hasText: 'You accepted this policy on' })).toBeVisible();
  await atEachViewport(page, async () => {
    await expect(page.getByTestId('sync-status')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolations(page);
  });
});
