import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  acceptBetaPolicyIfAsked,
  addAppointmentThroughUi,
  createVerifiedUser,
  PASSWORD,
  toastsOf,
} from './support';

// Run by `npm run screenshots` (screenshots.mjs), not by the browser tests. Every screen there is, signed
// out, as a patient and as a caregiver, at each size, in light and dark (the system's colour scheme, which
// the app follows unless the person chose otherwise in the profile). Files are named
// <screen>-<phone|desktop>-<light|dark>.png.

const ROOT = join(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'tests', 'screenshots');
const INSTALL_OUT = join(ROOT, 'public', 'screenshots');

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, mobile: true },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, mobile: false },
] as const;

type Size = (typeof SIZES)[number];

async function newPage(browser: Browser, size: Size): Promise<Page> {
  const context = await browser.newContext({
    viewport: size.viewport,
    isMobile: size.mobile,
    hasTouch: size.mobile,
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
  });
  return context.newPage();
}

/** Waits for the toasts and transitions of the last action to be gone. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(toastsOf(page)).toHaveCount(0, {
    timeout: 6000,
  });
  await page.waitForTimeout(150);
}

async function shoot(page: Page, size: Size, screen: string) {
  await settle(page);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(100);
    await page.screenshot({
      path: join(OUT, `${screen}-${size.name}-${scheme}.png`),
      animations: 'disabled',
      caret: 'hide',
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function signInAs(page: Page, email: string) {
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByRole('textbox', { name: 'Email' }).fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(beta-user-policy|dashboard|caregiver\/dashboard|unauthorized)$/);
}

test.beforeAll(() => {
  mkdirSync(OUT, { recursive: true });
  mkdirSync(INSTALL_OUT, { recursive: true });
});

for (const size of SIZES) {
  test(`screens at ${size.name} size`, async ({ browser, request }) => {
    // Signed out.
    const guest = await newPage(browser, size);
    await guest.goto('/login');
    await expect(guest.getByRole('form', { name: 'Sign in' })).toBeVisible();
    await shoot(guest, size, 'login');
    await guest.getByRole('tab', { name: 'Sign up' }).click();
    await shoot(guest, size, 'sign-up');
    await guest.getByRole('tab', { name: 'Sign in' }).click();
    await guest.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(guest.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await shoot(guest, size, 'forgot-password');
    for (const [path, screen] of [
      ['/privacy-policy', 'privacy-policy'],
      ['/terms-of-use', 'terms-of-use'],
      ['/verify-email/not-a-real-token', 'verify-email-invalid'],
      ['/no-such-page', 'not-found'],
    ] as const) {
      await guest.goto(path);
      await shoot(guest, size, screen);
    }
    await guest.context().close();

    // A patient: the beta policy on the first sign-in, then every screen of the menu.
    const patient = await createVerifiedUser(request, 'Patient', 'Maria Lopez');
    const page = await newPage(browser, size);
    await signInAs(page, patient.email);
    await expect(page).toHaveURL(/beta-user-policy$/);
    await shoot(page, size, 'beta-policy');
    await acceptBetaPolicyIfAsked(page);
    await expect(page.getByTestId('greeting')).toBeVisible();
    await shoot(page, size, 'dashboard-empty');
    await page.goto('/appointments');
    await shoot(page, size, 'appointments-empty');
    await addAppointmentThroughUi(page, 'Annual check-up with Dr. Chen');
    await addAppointmentThroughUi(page, 'Blood test at the lab');
    await shoot(page, size, 'appointments');
    await page.getByRole('button', { name: 'New appointment' }).click();
    await expect(page.getByRole('form', { name: 'New appointment' })).toBeVisible();
    await shoot(page, size, 'appointment-form');
    await page.goto('/dashboard');
    await expect(page.getByText('Annual check-up with Dr. Chen').first()).toBeVisible();
    await settle(page);
    await page.screenshot({
      path: join(INSTALL_OUT, `install-${size.name}.png`),
      animations: 'disabled',
      caret: 'hide',
    });
    await shoot(page, size, 'dashboard');
    if (size.mobile) {
      await page.getByRole('button', { name: 'More' }).click();
      await expect(page.getByTestId('more-sheet')).toBeVisible();
      await shoot(page, size, 'more-sheet');
      await page.keyboard.press('Escape');
    }
    for (const [path, screen] of [
      ['/profile', 'profile'],
      ['/prescriptions', 'prescriptions'],
      ['/caregiver/dashboard', 'unauthorized'],
    ] as const) {
      await page.goto(path);
      await shoot(page, size, screen);
    }
    await page.context().close();

    // A caregiver with no patient yet.
    const caregiver = await createVerifiedUser(request, 'Caregiver', 'Sam Okafor');
    const carer = await newPage(browser, size);
    await signInAs(carer, caregiver.email);
    await acceptBetaPolicyIfAsked(carer);
    await expect(carer.getByTestId('greeting')).toBeVisible();
    await shoot(carer, size, 'caregiver-dashboard');
    await carer.goto('/caregiver/patients');
    await shoot(carer, size, 'caregiver-patients');
    await carer.context().close();
  });
}
