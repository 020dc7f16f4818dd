import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  PASSWORD,
  VIEWPORTS,
  expectNoAxeViolations,
  serverAppointments,
  WITHOUT_SERVICE_WORKER,
} from './support';

// Online screens only: without the service worker (support.ts: WITHOUT_SERVICE_WORKER).
test.use(WITHOUT_SERVICE_WORKER);

// Keyboard only: signing in and booking an appointment with Tab, typing and Enter, no
// mouse. At each step the focus is where a keyboard user needs it, and visibly so. At both sizes: the order
// of the focus follows each size's layout (the tab bar on a phone, the sidebar on a laptop).

test.use({ locale: 'en-US' });

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails if it is not reached in `max` presses. */
async function tabTo(page: Page, target: Locator, { max = 40, back = false } = {}) {
  await expect(target).toBeVisible();
  for (let presses = 0; presses <= max; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) {
      // The focus shows: a keyboard user can see where they are.
      expect(await target.evaluate((element) => element.matches(':focus-visible'))).toBe(true);
      return;
    }
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target.toString()} was not reached with ${max} presses of Tab`);
}

/** The first visible link with exactly this name (the sidebar on a laptop, the tab bar on a phone). */
const visibleLink = (page: Page, name: string) =>
  page
    .locator('a:visible')
    .filter({ hasText: new RegExp(`^\\s*${name}\\s*$`) })
    .first();

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} x ${viewport.height}`, () => {
    test.use({ viewport });

    test('sign in and book an appointment with the keyboard alone', async ({
      page,
      patient: { email },
      request,
    }) => {
      // The patient fixture has accepted the policy (the subject of other tests): sign-in goes straight home.

      // ---- sign in: Tab to each field, type, Enter ----
      await page.goto('/login');
      const signIn = page.getByRole('form', { name: 'Sign in' });
      await tabTo(page, signIn.getByLabel('Email'));
      await page.keyboard.type(email);
      await page.keyboard.press('Tab');
      const password = signIn.getByRole('textbox', { name: 'Password', exact: true });
      await expect(password).toBeFocused();
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await expect(page.getByText('Logged in successfully')).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard$/);

      // ---- to the appointments, through the menu ----
      await tabTo(page, visibleLink(page, 'Appointments'));
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/appointments$/);
      const newButton = page.getByRole('button', { name: 'New appointment' });
      await tabTo(page, newButton);

      // ---- the form: opening it puts the focus in its first field ----
      await page.keyboard.press('Enter');
      const form = page.getByRole('form', { name: 'New appointment' });
      const title = form.getByRole('textbox', { name: 'Title' });
      await expect(title).toBeFocused();

      // Saving with nothing filled in: the errors show and the focus goes to the first field with one.
      await tabTo(page, form.getByRole('button', { name: 'Add appointment' }));
      await page.keyboard.press('Enter');
      await expect(form.getByText('Title is required.')).toBeVisible();
      await expect(form.getByText('Date is required.')).toBeVisible();
      await expect(title).toBeFocused();
      await expectNoAxeViolations(page);

      await page.keyboard.type('Physio follow-up');
      await page.keyboard.press('Tab');
      const when = form.getByLabel('Date and time');
      await expect(when).toBeFocused();
      // The platform's picker takes the date and time typed, segment by segment: any minute is kept.
      await page.keyboard.type('03042027');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.type('1007');
      await page.keyboard.type('A');
      await expect(when).toHaveValue('2027-03-04T10:07');
      await tabTo(page, form.getByRole('textbox', { name: 'Location' }));
      await page.keyboard.type('Riverside Clinic');
      await tabTo(page, form.getByRole('button', { name: 'Add appointment' }));
      await page.keyboard.press('Enter');

      // ---- saved: the focus moves to the result ----
      await expect(page.getByText('Appointment added').last()).toBeVisible();
      await expect(form).toBeHidden();
      const saved = page.locator('li[data-appointment-id]', { hasText: 'Physio follow-up' });
      await expect(saved).toBeFocused();
      await expect(saved).toContainText('Riverside Clinic');
      await expect(saved).toContainText(/Mar 04, 2027, 10:07/);
      await expectNoAxeViolations(page);
      await expect
        .poll(async () => (await serverAppointments(page, request)).map((row) => row.appointment_title))
        .toEqual(['Physio follow-up']);

      // ---- edit from the keyboard, cancel: the focus goes back to where it was ----
      await tabTo(page, saved.getByRole('button', { name: 'Edit Physio follow-up' }));
      await page.keyboard.press('Enter');
      const edit = page.getByRole('form', { name: 'Edit appointment' });
      await expect(edit.getByRole('textbox', { name: 'Title' })).toBeFocused();
      await tabTo(page, edit.getByRole('button', { name: 'Cancel' }));
      await page.keyboard.press('Enter');
      await expect(edit).toBeHidden();
      await expect(saved.getByRole('button', { name: 'Edit Physio follow-up' })).toBeFocused();
    });
  });
}
