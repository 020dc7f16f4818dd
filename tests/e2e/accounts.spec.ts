import { expect, test } from './fixtures';
import {
  PASSWORD,
  acceptBetaPolicyIfAsked,
  createAccount,
  createVerifiedUser,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  indexedDbNames,
  latestMailTo,
  signIn,
  signInThroughUi,
  toastOpacities,
  uniqueEmail,
  verificationPath,
  WITHOUT_SERVICE_WORKER,
  toastsOf,
  VIEWPORTS,
} from './support';

// Online screens only: without the service worker (support.ts: WITHOUT_SERVICE_WORKER).
test.use(WITHOUT_SERVICE_WORKER);

// Signing up, verifying, signing in and out, and where each kind of account may go. Forgot password is in
// sessions.spec.ts (with the reset token it needs).

test('sign up, verify from the mailbox, sign in to the patient shell, log out leaving nothing behind', async ({
  page,
}) => {
  const email = uniqueEmail('new-patient');
  await page.goto('/login');
  await expectNoAxeViolations(page);
  await page.getByRole('tab', { name: 'Sign up' }).click();
  const signUp = page.getByRole('form', { name: 'Sign up' });
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(signUp.getByText('Name is required.')).toBeVisible();
  await signUp.getByLabel('Full name').fill('Rosa Diaz');
  await signUp.getByLabel('Email').fill(email);
  await signUp.getByLabel('Password').fill('short');
  await expect(signUp.getByText('Password must be at least 8 characters.')).toBeVisible();
  await signUp.getByLabel('Password').fill(PASSWORD);
  await signUp.getByLabel('Account type').selectOption('Patient');
  await signUp.getByLabel('Zip code').fill('10001');
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(
    page.getByText('Check your e-mail: we sent a message to this address with the next step.'),
  ).toBeVisible();

  // Signing in before verifying is refused with a clear message.
  await page.getByRole('tab', { name: 'Sign in' }).click();
  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Password').fill(PASSWORD);
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await expect(signIn.getByRole('alert')).toContainText('verify your e-mail');
  // A lost mail: the person asks for a new link from where they are.
  await signIn.getByRole('button', { name: 'Resend verification e-mail' }).click();
  await expect(signIn.getByRole('status')).toContainText('a new link is on its way');

  const link = verificationPath(await latestMailTo(email));
  await page.goto(link);
  await expect(page.getByRole('status')).toContainText('You can sign in now');
  // The same link opened again (from the mail, later) is no error: it says so and offers sign-in.
  await page.goto(link);
  await expect(page.getByRole('status')).toHaveText(
    'Your e-mail address is already verified. You can sign in.',
  );
  await expect(page.getByRole('status')).not.toHaveClass(/danger/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Go to sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // A new patient has no plan yet: the sign-in asks for one, Free is chosen, and it goes on.
  await page.goto('/login');
  const first = page.getByRole('form', { name: 'Sign in' });
  await first.getByLabel('Email').fill(email);
  await first.getByLabel('Password').fill(PASSWORD);
  await first.getByRole('button', { name: 'Sign in' }).click();
  const plans = page.getByRole('dialog', { name: 'Choose a plan' });
  await plans.getByRole('radio', { name: 'Free' }).check();
  await plans.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Logged in successfully')).toBeVisible();
  await acceptBetaPolicyIfAsked(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of [
    'Dashboard',
    'Doctors',
    'Pharmacies',
    'Appointments',
    'Caregivers',
    'Prescriptions',
    'Lab Reports',
    'Medical History',
    'Vitals',
    'Caregiver Permissions Request',
    'Subscription',
    'Profile',
    'Logout',
  ]) {
    await expect(nav.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByTestId('greeting')).toContainText('Rosa Diaz');
  await expectNoAxeViolations(page);
  expect((await indexedDbNames(page)).some((name) => name.startsWith('kincare-'))).toBe(true);

  // The sidebar collapses from 250 to 80 px.
  expect((await nav.boundingBox())?.width).toBe(250);
  expect(await nav.evaluate((element) => getComputedStyle(element).transitionDuration)).toBe('0.3s');
  await nav.getByRole('button', { name: 'Collapse sidebar' }).click();
  await expect.poll(async () => (await nav.boundingBox())?.width).toBe(80);
  await nav.getByRole('button', { name: 'Expand sidebar' }).click();

  await nav.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await indexedDbNames(page)).filter((name) => name.startsWith('kincare-'))).toEqual([]);
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('role')])).toEqual([
    null,
    null,
  ]);
  // Signed out, a private path goes back to /login.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  // The policy was accepted once, for this account: signing in again goes straight home.
  const again = page.getByRole('form', { name: 'Sign in' });
  await again.getByLabel('Email').fill(email);
  await again.getByLabel('Password').fill(PASSWORD);
  await again.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a caregiver account gets the caregiver sidebar and no patient routes', async ({ page, request }) => {
  await signIn(page, await createAccount(request, 'Caregiver', 'Carl Giver'));
  await expect(page).toHaveURL(/\/caregiver\/dashboard$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of ['Dashboard', 'Patients', 'Profile', 'Permission Requests']) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  const none = nav.getByText('No caregiver permissions');
  await expect(none).toBeVisible();
  await expect(none.locator('xpath=..')).toHaveAttribute('aria-disabled', 'true');
  await expect(nav.getByRole('link', { name: 'Doctors' })).toHaveCount(0);
  // Without ReadDoctor the caregiver route is off limits; so are patient routes.
  await page.goto('/caregiver/doctors');
  await expect(page).toHaveURL(/\/unauthorized$/);
  await expect(page.getByText('Unauthorized Access')).toBeVisible();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/unauthorized$/);
  // The header's profile button goes to the caregiver profile.
  await page.goto('/caregiver/dashboard');
  await page.getByRole('link', { name: 'Profile', exact: true }).first().click();
  await expect(page).toHaveURL(/\/caregiver\/profile$/);
});

test('unknown paths redirect: to /login without a token, home by role with one', async ({
  page,
  request,
}) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/terms-of-use');
  await expect(page.getByRole('heading', { name: 'Terms of Use' })).toBeVisible();
  await page.goto('/privacy-policy');
  await expect(page.getByRole('heading', { name: 'Privacy Policy' })).toBeVisible();
  await page.goto('/unauthorized');
  await expect(page.getByText('Unauthorized Access')).toBeVisible();

  await signIn(page, await createAccount(request, 'Patient'));
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
});

// On a phone and a laptop: the toast stands where each layout puts it, over the sign-in page.
for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });
    test(`an expired session (401) clears the session, goes to the root and says Unauthorized`, async ({
      patientPage: page,
      patient: { email },
      request,
    }) => {
      await page.evaluate(() => {
        localStorage.setItem('selectedPatientId', 'someone');
        localStorage.setItem('healthCheckinDone', 'true');
      });
      // Another device changes the password: this device's token stops working.
      const login = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
      const token = (await login.json()).accessToken as string;
      const changed = await request.put('/api/auth/change-password', {
        headers: { Authorization: `Bearer ${token}` },
        data: { old_password: PASSWORD, new_password: 'Healthier456', confirm_password: 'Healthier456' },
      });
      expect(changed.ok()).toBe(true);
      // The next call this device makes (here the sync on opening the app) is answered 401.
      await page.goto('/profile');
      await expect(page.getByText('Unauthorized', { exact: true })).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      // It is about the session, not a page: it stays while the person moves on (other errors close with
      // their page, fading out), as the app goes on from the root to the sign-in page. The pointer rests on
      // it, which holds its own 10 s, and the link is followed from the keyboard.
      const toast = toastsOf(page).filter({ hasText: 'Unauthorized' });
      await toast.hover();
      await page.getByRole('link', { name: 'Terms of Use' }).focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/terms-of-use$/);
      await page.waitForTimeout(1000); // a closing toast has faded out by then
      expect(await toastOpacities(toast)).toEqual([1]);
      // Two sentences that fit the screen, and read with no accessibility fault.
      await expectNoHorizontalOverflow(page, toast);
      await expectNoAxeViolations(page, { withToast: true });
      expect(
        await page.evaluate(() =>
          ['token', 'role', 'selectedPatientId', 'healthCheckinDone'].map((key) => localStorage.getItem(key)),
        ),
      ).toEqual([null, null, null, null]);
      // Nothing was left unsent, so nothing of the person stays on the device.
      expect(
        (await indexedDbNames(page)).filter(
          (name) => name.startsWith('kincare-') && name !== 'kincare-session',
        ),
      ).toEqual([]);
    });
  });
}

test('after sign-in the app asks the browser to keep its data (persistent storage)', async ({
  page,
  request,
}) => {
  await page.addInitScript(() => {
    const calls = { persist: 0 };
    (window as unknown as { persistCalls: typeof calls }).persistCalls = calls;
    navigator.storage.persisted = async () => false;
    navigator.storage.persist = async () => {
      calls.persist++;
      return true;
    };
  });
  const { email } = await createVerifiedUser(request, 'Patient');
  await page.goto('/login');
  expect(
    await page.evaluate(
      () => (window as unknown as { persistCalls: { persist: number } }).persistCalls.persist,
    ),
  ).toBe(0);
  await signInThroughUi(page, email);
  await expect
    .poll(() =>
      page.evaluate(() => (window as unknown as { persistCalls: { persist: number } }).persistCalls.persist),
    )
    .toBe(1);
});

test('a dead verification link offers a new one; the new link verifies the account', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('lost-link');
  const registered = await request.post('/api/auth/register', {
    data: { name: 'Lee Lost', email, password: PASSWORD, role: 'Patient', zip_code: '10001' },
  });
  expect(registered.status()).toBe(201);
  const first = verificationPath(await latestMailTo(email));

  await page.goto(`/verify-email/${'x'.repeat(43)}`);
  await expect(page.getByRole('status')).toHaveText('This verification link is invalid or has expired.');
  const resend = page.getByRole('form', { name: 'Resend verification e-mail' });
  await resend.getByRole('button', { name: 'Resend verification e-mail' }).click();
  await expect(resend.getByText('Email is required.')).toBeVisible();
  await resend.getByLabel('Email').fill(email);
  await resend.getByRole('button', { name: 'Resend verification e-mail' }).click();
  await expect(resend.getByRole('status')).toContainText('a new link is on its way');
  await expectNoAxeViolations(page);
  // The registration mail is a minute old, so no second one yet (one every 5 minutes): its link still works.
  await page.goto(first);
  await expect(page.getByRole('status')).toContainText('You can sign in now');
});
