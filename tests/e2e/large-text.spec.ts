import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { syncNow, WITHOUT_SERVICE_WORKER } from './support';

// Online screens only: without the service worker (support.ts: WITHOUT_SERVICE_WORKER).
test.use(WITHOUT_SERVICE_WORKER);

// Larger text (WCAG 1.4.4, 1.4.10): with the browser's text at 150% and 200% on a 390 px phone, every
// screen of the menu reflows: nothing reaches past the screen's right edge (clipped or scrolled), and the
// tab bar keeps More on the screen. Every size of the app is in rem, so the root's font size stands in
// for the browser's text setting.

const PHONE = { width: 390, height: 844 };
const PATIENT_SCREENS = [
  '/dashboard',
  '/appointments',
  '/prescriptions',
  '/lab-report',
  '/doctors',
  '/pharmacies',
  '/care-giver',
  '/permission-request',
  '/medical-history',
  '/medical-history/import',
  '/medical-id',
  '/visit-summary',
  '/share-links',
  '/vitals',
  '/subscription',
  '/profile',
];

/** What reaches past the right edge of the screen, named for the failure message. */
async function pastTheEdge(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && box.right > window.innerWidth + 1;
      })
      .slice(0, 5)
      .map((element) => `${element.tagName} "${(element.textContent ?? '').trim().slice(0, 40)}"`),
  );
}

test.use({ viewport: PHONE });

for (const percent of [150, 200])
  test(`every screen reflows with the text at ${percent}%`, async ({ patientPage: page }) => {
    test.setTimeout(180_000);
    await syncNow(page);
    for (const path of PATIENT_SCREENS) {
      await page.goto(path);
      await page.addStyleTag({ content: `html { font-size: ${percent}% !important; }` });
      await expect(page.locator('main h1').first()).toBeVisible();
      await expect.poll(() => pastTheEdge(page), { message: path }).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(
        PHONE.width,
      );
      const more = page.getByTestId('tab-bar').getByRole('button', { name: 'More' });
      const box = await more.boundingBox();
      expect((box?.x ?? Infinity) + (box?.width ?? 0), `${path}: More on the screen`).toBeLessThanOrEqual(
        PHONE.width + 0.5,
      );
    }
  });

test.describe('a caregiver', () => {
  test.use({
    caregiverPermissions: [
      'ReadDoctor',
      'ReadPharmacy',
      'ReadAppointment',
      'ReadPrescription',
      'ReadLabReport',
      'ReadMedicalHistory',
      'ReadVitals',
    ],
  });

  test('every screen of the caregiver’s menu reflows with the text at 200%', async ({
    caregiverPage: page,
  }) => {
    test.setTimeout(180_000);
    await syncNow(page);
    for (const path of [
      '/caregiver/dashboard',
      '/caregiver/patients',
      '/caregiver/permission-request',
      '/caregiver/appointments',
      '/caregiver/prescriptions',
      '/caregiver/lab-report',
      '/caregiver/doctors',
      '/caregiver/pharmacies',
      '/caregiver/medical-history',
      '/caregiver/vitals',
      '/caregiver/import',
      '/caregiver/profile',
    ]) {
      await page.goto(path);
      await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
      await expect(page.locator('main h1').first()).toBeVisible();
      await expect.poll(() => pastTheEdge(page), { message: path }).toEqual([]);
    }
  });
});
