import type { Locator, Page } from '@playwright/test';
import { TINY_PNG } from '../fixtures/images';
import { expect, test } from './fixtures';
import {
  createAccount,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  signIn,
  WITHOUT_SERVICE_WORKER,
} from './support';

// Online screens only: without the service worker (support.ts: WITHOUT_SERVICE_WORKER).
test.use(WITHOUT_SERVICE_WORKER);

// The shell: a tab bar and a More sheet below 768 px, the sidebar from 768 px (its collapse
// remembered), sheets and popovers inside the screen, nothing to tap under 44 px, and light and dark themes
// that axe finds no fault with.

const PHONES = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
] as const;
const DESKTOP = { width: 1280, height: 800 } as const;

/** The patient's menu (src/app/README.md) without the four entries the tab bar holds, in its order. */
const PATIENT_MORE = [
  'Doctors',
  'Pharmacies',
  'Caregivers',
  'Medical History',
  'Vitals',
  'Caregiver Permissions Request',
  'Subscription',
  'Profile',
];

async function expectInsideViewport(page: Page, box: Locator) {
  const bounds = await box.boundingBox();
  const viewport = page.viewportSize();
  expect(bounds && viewport, 'box and viewport are measurable').toBeTruthy();
  if (!bounds || !viewport) return;
  expect(bounds.x).toBeGreaterThanOrEqual(0);
  expect(bounds.y).toBeGreaterThanOrEqual(0);
  expect(bounds.x + bounds.width).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(bounds.y + bounds.height).toBeLessThanOrEqual(viewport.height + 0.5);
}

test.describe('a patient on a phone', () => {
  test.use({ viewport: PHONES[0], patientName: 'Tess Thumb' });

  test('with the browser’s text at 200%, More stays on the screen and every menu entry is reachable', async ({
    patientPage: page,
  }) => {
    await page.setViewportSize(PHONES[1]);
    // The browser's text size: every size of the app is in rem, so it follows the root's font size.
    await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
    const tabs = page.getByTestId('tab-bar');
    const more = tabs.getByRole('button', { name: 'More' });
    await expectInsideViewport(page, more);
    for (const tab of await tabs.getByRole('link').all()) await expectInsideViewport(page, tab);
    await expectTapTargets(tabs.getByRole('link'));
    await more.click();
    const sheet = page.getByTestId('more-sheet');
    await expect(sheet.getByRole('link')).toHaveText(PATIENT_MORE);
    for (const name of [...PATIENT_MORE, 'Logout']) {
      const entry = sheet.getByRole(name === 'Logout' ? 'button' : 'link', { name, exact: true });
      await entry.scrollIntoViewIfNeeded();
      await expectInsideViewport(page, entry);
    }
    await sheet.getByRole('link', { name: 'Caregivers', exact: true }).click();
    await expect(page).toHaveURL(/\/care-giver$/);
  });

  test('gets a tab bar, a More sheet in the menu order, and a shell that fits', async ({
    patientPage: page,
  }) => {
    await expect(page).toHaveURL(/\/dashboard$/);
    const tabs = page.getByTestId('tab-bar');
    // At each phone size: the sidebar gives way to the tab bar, and the shell fits.
    for (const viewport of PHONES) {
      await page.setViewportSize(viewport);
      await expect(tabs).toBeVisible();
      await expect(page.getByTestId('sidebar')).toBeHidden();
      await expect(tabs.getByRole('link')).toHaveText(['Home', 'Medicines', 'Appointments', 'Reports']);
      await expect(tabs.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
      await expectTapTargets(tabs.getByRole('link'));
      await expectTapTargets(tabs.getByRole('button', { name: 'More' }));
      // The header: greeting, sync status, avatar (initials without a photo), each tappable.
      await expect(page.getByTestId('greeting')).toContainText('Tess Thumb');
      await expect(page.getByTestId('avatar-initials')).toHaveAttribute('data-initials', 'TT');
      await expectTapTargets(page.locator('header').getByRole('link', { name: 'Profile' }));
      // The sync status replaces its placeholder once its chunk is there, after the first paint.
      await expect(page.getByTestId('sync-status')).toBeVisible();
      await expectTapTargets(page.getByTestId('sync-status'));
      await expectNoHorizontalOverflow(page, tabs, page.locator('header'));

      // Toasts stay bottom-center but rise above the tab bar instead of hiding under it.
      const toasterBottom = await page.evaluate(() => {
        const container = [...document.querySelectorAll<HTMLElement>('div')].find(
          (element) => element.style.zIndex === '9999',
        );
        return container ? parseFloat(getComputedStyle(container).bottom) : null;
      });
      expect(toasterBottom).toBeGreaterThanOrEqual((await tabs.boundingBox())?.height ?? Infinity);

      // More: the rest of the menu in the menu's order, then Logout, as a sheet on the screen.
      await tabs.getByRole('button', { name: 'More' }).click();
      const sheet = page.getByTestId('more-sheet');
      await expect(sheet).toBeVisible();
      await expect(sheet.getByRole('link')).toHaveText(PATIENT_MORE);
      await expect(sheet.getByRole('button', { name: 'Logout' })).toBeVisible();
      await expectInsideViewport(page, sheet);
      await expectTapTargets(sheet.getByRole('link'));
      await expectTapTargets(sheet.getByRole('button', { name: 'Logout' }));
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await expect(sheet).toBeHidden();
    }

    // Tabs navigate.
    await tabs.getByRole('link', { name: 'Appointments' }).click();
    await expect(page).toHaveURL(/\/appointments$/);
    await expect(tabs.getByRole('link', { name: 'Appointments' })).toHaveAttribute('aria-current', 'page');
    await tabs.getByRole('link', { name: 'Medicines' }).click();
    await expect(page).toHaveURL(/\/prescriptions$/);
    await tabs.getByRole('link', { name: 'Reports' }).click();
    await expect(page).toHaveURL(/\/lab-report$/);
    await expectNoHorizontalOverflow(page);

    // The More sheet's entries navigate, and it closes.
    await tabs.getByRole('button', { name: 'More' }).click();
    const sheet = page.getByTestId('more-sheet');
    await sheet.getByRole('link', { name: 'Doctors' }).click();
    await expect(page).toHaveURL(/\/doctors$/);
    await expect(sheet).toBeHidden();

    // The sync status opens as a bottom sheet inside the screen, and Escape closes it.
    await page.getByTestId('sync-status').click();
    const panel = page.getByTestId('sync-status-panel');
    await expect(panel).toBeVisible();
    await expectInsideViewport(page, panel);
    await expectTapTargets(panel.getByRole('button', { name: 'Sync now' }));
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();

    // Logout from the More sheet.
    await tabs.getByRole('button', { name: 'More' }).click();
    await page.getByTestId('more-sheet').getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('on a 390 x 844 phone', () => {
  test.use({ viewport: PHONES[1] });

  test('light and dark (system and profile switch) pass axe, and the page never scrolls sideways', async ({
    patientPage: page,
  }) => {
    const canvas = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await canvas();
    await expectNoAxeViolations(page);

    // The system's choice.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(canvas).not.toBe(light);
    const dark = await canvas();
    await expectNoAxeViolations(page);
    await page.getByTestId('sync-status').click();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');

    // The profile's switch overrides the system, and is remembered after a reload.
    await page.getByTestId('tab-bar').getByRole('button', { name: 'More' }).click();
    await page.getByTestId('more-sheet').getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolations(page);
    const appearance = page.getByRole('group', { name: 'Appearance' });
    await appearance.getByText('Light', { exact: true }).click();
    await expect.poll(canvas).toBe(light);
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked();
    await expect.poll(canvas).toBe(light);
    await page.emulateMedia({ colorScheme: 'light' });
    await appearance.getByText('Dark', { exact: true }).click();
    await expect.poll(canvas).toBe(dark);
    await expectNoAxeViolations(page);
    await expectNoHorizontalOverflow(page);
    // Arrow keys move between the choices.
    await page.getByRole('radio', { name: 'Dark' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
    await expect.poll(canvas).toBe(light);
  });

  test('the show-password toggle works by keyboard', async ({ page }) => {
    await page.goto('/login');
    const form = page.getByRole('form', { name: 'Sign in' });
    const password = form.getByRole('textbox', { name: 'Password', exact: true });
    await password.fill('Secret-Words-42');
    await expect(password).toHaveAttribute('type', 'password');
    await password.focus();
    await page.keyboard.press('Tab');
    const show = form.getByRole('button', { name: 'Show' });
    await expect(show).toBeFocused();
    await expectTapTargets(show);
    await page.keyboard.press('Enter');
    await expect(password).toHaveAttribute('type', 'text');
    await expect(password).toHaveValue('Secret-Words-42');
    const hide = form.getByRole('button', { name: 'Hide' });
    await expect(hide).toBeFocused();
    await page.keyboard.press('Space');
    await expect(password).toHaveAttribute('type', 'password');
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
  });

  test("a caregiver gets 'Select Patient' in the header, and only the tabs their permissions allow", async ({
    page,
    request,
  }) => {
    await signIn(page, await createAccount(request, 'Caregiver', 'Cora Care'));
    await expect(page).toHaveURL(/\/caregiver\/dashboard$/);
    const tabs = page.getByTestId('tab-bar');
    // Without Read permissions on a patient, only Home and More (a tab needs its Read permission).
    await expect(tabs.getByRole('link')).toHaveText(['Home']);
    await expect(tabs.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/caregiver/dashboard');
    const selector = page.getByRole('combobox', { name: 'Select Patient' });
    await expect(selector).toBeVisible();
    await expectTapTargets(selector);
    await expectNoHorizontalOverflow(page, page.locator('header'));
    await tabs.getByRole('button', { name: 'More' }).click();
    const sheet = page.getByTestId('more-sheet');
    await expect(sheet.getByRole('link')).toHaveText(['Patients', 'Profile', 'Permission Requests']);
    await expect(sheet.locator('[aria-disabled="true"]')).toHaveText('No caregiver permissions');
    await expectNoAxeViolations(page);
  });
});

test.describe('on a 1280 x 800 screen', () => {
  test.use({ viewport: DESKTOP });

  test.use({ patientName: 'Wide Wanda' });

  test('the sidebar replaces the tab bar, and its collapse is remembered after a reload', async ({
    patientPage: page,
  }) => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(page.getByTestId('sidebar')).toBeVisible();
    await expect(page.getByTestId('tab-bar')).toBeHidden();
    expect((await nav.boundingBox())?.width).toBe(250);
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolations(page);

    await nav.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect.poll(async () => (await nav.boundingBox())?.width).toBe(80);
    await page.reload();
    await expect(nav.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
    await expect.poll(async () => (await nav.boundingBox())?.width).toBe(80);
    await expectNoAxeViolations(page);
    await nav.getByRole('button', { name: 'Expand sidebar' }).click();
    await page.reload();
    await expect.poll(async () => (await nav.boundingBox())?.width).toBe(250);

    // The sync status panel opens under the header, inside the screen; dark passes axe too.
    await page.getByTestId('sync-status').click();
    const panel = page.getByTestId('sync-status-panel');
    await expect(panel).toBeVisible();
    await expectInsideViewport(page, panel);
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await nav.getByRole('link', { name: 'Appointments' }).click();
    await expect(page).toHaveURL(/\/appointments$/);
    await expectNoAxeViolations(page);

    // The header's avatar shows the profile photo once there is one (from the device's copy of the profile).
    await expect(page.getByTestId('avatar-initials')).toHaveAttribute('data-initials', 'WW');
    await nav.getByRole('link', { name: 'Profile' }).click();
    const form = page.getByRole('form', { name: 'Update profile' });
    await form
      .getByLabel(/^Profile photo/)
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: TINY_PNG });
    await form.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile updated successfully')).toBeVisible();
    const photo = page.locator('header').getByTestId('avatar-photo');
    await expect(photo).toBeVisible();
    await expect
      .poll(() => photo.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    await expect(page.getByTestId('avatar-initials')).toHaveCount(0);
  });
});
