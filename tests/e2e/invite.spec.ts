import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  PASSWORD,
  acceptBetaPolicyIfAsked,
  addAppointmentThroughUi,
  atEachViewport,
  createAccount,
  endSessionsElsewhere,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  invite,
  latestMailTo,
  signIn,
  signedInUserId,
  uniqueEmail,
  VIEWPORTS,
  waitForServiceWorker,
} from './support';

// A person without an account, invited by a patient: the mailed link (/invite/register/:token) shows who
// invited them and what they will be allowed to do, they create a caregiver account, the onboarding link
// signs them in, and they land on the caregiver's dashboard with that patient selected. Links work once.

const INVITE_INVALID =
  'This invitation link is invalid, has expired or was already used. Ask the patient to invite you again.';
const ONBOARDING_INVALID =
  'This sign-in link is invalid, has expired or was already used. Sign in with your e-mail and password.';

async function patientInvites(request: APIRequestContext, permissions: string[]) {
  const patient = await createAccount(request, 'Patient', 'Grace Hopper');
  const caregiverEmail = uniqueEmail('invited');
  await invite(request, patient.token, caregiverEmail, permissions);
  const mail = await latestMailTo(caregiverEmail);
  const link = /\/invite\/register\/[A-Za-z0-9_-]{43}/.exec(mail)?.[0];
  expect(link, mail).toBeTruthy();
  return { patient, caregiverEmail, link: link ?? '' };
}

test.describe('on a phone', () => {
  const viewport = VIEWPORTS[0];
  test.use({ viewport });

  test('an invited person registers through the mailed link, is signed in by onboarding, lands on the caregiver dashboard, and signs in later with the chosen password', async ({
    page,
    request,
  }) => {
    const { caregiverEmail, link } = await patientInvites(request, ['ReadAppointment', 'AddAppointment']);
    await page.goto(link);
    await expect(page.getByTestId('invite-from')).toContainText('Grace Hopper invited you');
    const email = page.getByLabel('Email');
    await expect(email).toHaveValue(caregiverEmail);
    await expect(email).toHaveAttribute('readonly', '');
    await expect(page.getByText('Appointment: Read Appointment, Add Appointment')).toBeVisible();
    const form = page.getByRole('form', { name: 'Create your caregiver account' });
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
      await expectTapTargets(form.getByRole('button'));
    });

    // Checked on the device before anything is sent.
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Name is required.')).toBeVisible();
    await form.getByLabel('Full name').fill('Ada Lovelace');
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByLabel('Zip code').fill('10001');
    await form.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL(/\/onboarding\/[A-Za-z0-9_-]+$/);
    const onboardingPath = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'You can now help Grace Hopper' })).toBeVisible();
    await expect(page.getByText('Appointment: Read Appointment, Add Appointment')).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
    });
    await page.getByRole('button', { name: 'Continue' }).click();
    await acceptBetaPolicyIfAsked(page);
    await expect(page).toHaveURL(/\/caregiver\/dashboard$/);
    expect(await signedInUserId(page)).not.toBeNull();
    // Their one patient is selected already, and the summary says what they may do.
    await expect(page.getByTestId('care-summary')).toContainText('You are helping Grace Hopper');
    await expect(page.getByLabel('Select Patient').first()).toHaveValue(/.+/);
    await expect(page.getByTestId('care-summary')).toContainText(
      'Appointment: Read Appointment, Add Appointment',
    );
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page, page.getByTestId('care-summary'));
    });

    // Both links were used: opened again, each says so and offers sign-in.
    const other = await page.context().browser()?.newContext({ viewport });
    const fresh = await other?.newPage();
    if (!fresh) throw new Error('no second page');
    await fresh.goto(new URL(link, page.url()).toString());
    await expect(fresh.getByText(INVITE_INVALID)).toBeVisible();
    await expect(fresh.getByRole('link', { name: 'Go to sign in' })).toBeVisible();
    await fresh.goto(new URL(onboardingPath, page.url()).toString());
    await expect(fresh.getByText(ONBOARDING_INVALID)).toBeVisible();
    await expect(fresh.getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expectNoAxeViolations(fresh);
    await other?.close();

    // The invited e-mail signs in later with the password chosen here.
    const login = await request.post('/api/auth/login', {
      data: { email: caregiverEmail, password: PASSWORD },
    });
    expect(login.ok()).toBe(true);
    expect((await login.json()).role).toBe('Caregiver');
  });
});

test('a made-up invitation link says it is invalid and links to sign-in', async ({ page }) => {
  await page.goto(`/invite/register/${'x'.repeat(43)}`);
  await expect(page.getByText(INVITE_INVALID)).toBeVisible();
  await page.getByRole('link', { name: 'Go to sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("onboarding asks, as sign-in does, before deleting an earlier person's unsent change on this device", async ({
  page,
  context,
  request,
}) => {
  const earlier = await createAccount(request, 'Patient', 'Eve Earlier');
  await signIn(page, earlier, '/appointments');
  await waitForServiceWorker(page); // the appointment form's code, offline
  await expect(page.getByRole('button', { name: 'New appointment' })).toBeVisible();
  await context.setOffline(true);
  await addAppointmentThroughUi(page, 'Physio');
  await endSessionsElsewhere(request, earlier.email);
  await context.setOffline(false);
  await expect(page).toHaveURL(/\/login$/);

  const { link } = await patientInvites(request, ['ReadDoctor']);
  await page.goto(link);
  const form = page.getByRole('form', { name: 'Create your caregiver account' });
  await form.getByLabel('Full name').fill('Nia New');
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByLabel('Zip code').fill('10001');
  await form.getByRole('button', { name: 'Create account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Unsent changes on this device' });
  await expect(dialog).toContainText(
    'This device holds 1 unsent change of the person who used Kincare here before. Signing in as you will delete it.',
  );
  await expect(dialog).not.toContainText('Physio');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Delete it and continue' }).click();
  await expect(page.getByRole('heading', { name: 'You can now help Grace Hopper' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await acceptBetaPolicyIfAsked(page);
  await expect(page).toHaveURL(/\/caregiver\/dashboard$/);
  const names = await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name ?? ''));
  expect(names.filter((name) => name.startsWith('kincare-') && name !== 'kincare-session')).toEqual([
    `kincare-${await signedInUserId(page)}`,
  ]);
});
