import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  bearer,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  menuEntry,
  VIEWPORTS,
  WITHOUT_SERVICE_WORKER,
} from './support';

// Online screens only: without the service worker (support.ts: WITHOUT_SERVICE_WORKER).
test.use(WITHOUT_SERVICE_WORKER);

// The sample directory reaches the patient's own town (src/server/directory/README.md): a patient in
// Springfield, Illinois (62704), far from the big cities, finds doctors and pharmacies near home and adds
// one of each; a zip that is not one, or one the server does not know, is told beside the field; and a
// search that finds nothing says where it looked and what to try, and the wider distance it suggests finds
// some. The journey runs on a phone; each state is checked at the phone's and the laptop's size.

const HOME_ZIP = '62704';

type Page1 = { data: { name: string }[]; totalCount: number };

/** What the directory answers, asked through the API (the test's expectations). */
async function directory(request: APIRequestContext, token: string, path: string): Promise<Page1> {
  const response = await request.get(path, { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as Page1;
}

const results = (page: Page) => page.getByRole('list', { name: 'Search results' }).getByRole('listitem');

/** axe, no sideways scrolling and tap targets of the form, at both sizes. */
async function expectWellDrawn(page: Page, formName: string) {
  await atEachViewport(page, async () => {
    await expectNoAxeViolations(page);
    await expectNoHorizontalOverflow(page);
    const form = page.getByRole('search', { name: formName });
    await expectTapTargets(form.locator('button:visible, select:visible, input:visible'));
  });
}

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test('a patient in Springfield, Illinois finds and adds a doctor and a pharmacy near home, and is told plainly when a search finds nothing', async ({
    patientPage: page,
    patient,
    request,
  }) => {
    test.setTimeout(240_000);
    const { token } = patient;
    const doctorsNear = await directory(request, token, `/api/doctors?zip=${HOME_ZIP}`);
    const pharmaciesNear = await directory(request, token, `/api/pharmacies?zip=${HOME_ZIP}`);
    expect(doctorsNear.totalCount).toBeGreaterThanOrEqual(5);
    expect(pharmaciesNear.totalCount).toBeGreaterThanOrEqual(3);
    // The sample's nearest practices are beyond 10 miles of this zip: a 10-mile search finds nothing.
    expect((await directory(request, token, `/api/doctors?zip=${HOME_ZIP}&miles=10`)).totalCount).toBe(0);

    // ---- Doctors ----
    await (await menuEntry(page, 'Doctors')).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Doctors' })).toBeVisible();
    const doctorForm = page.getByRole('search', { name: 'Find a doctor' });
    const zipField = doctorForm.getByRole('textbox', { name: 'Zip code' });
    const distance = doctorForm.getByRole('combobox', { name: 'Distance' });
    await expect(distance).toHaveValue('50');

    // Letters, and four digits: the device says so before asking.
    for (const typed of ['abcde', '6270']) {
      await zipField.fill(typed);
      await doctorForm.getByRole('button', { name: 'Search' }).click();
      await expect(doctorForm.getByText('Zip code must be 5 digits.')).toBeVisible();
      await expect(zipField).toBeFocused();
    }
    // Five digits that are no zip code: the server's sentence, beside the field.
    await zipField.fill('99999');
    await doctorForm.getByRole('button', { name: 'Search' }).click();
    await expect(doctorForm.getByText('We do not know this zip code. Check it and try again.')).toBeVisible();
    await expect(zipField).toHaveAttribute('aria-invalid', 'true');
    await expect(results(page)).toHaveCount(0);
    await expectWellDrawn(page, 'Find a doctor');

    // Nothing within 10 miles: where it looked, what to try, and focus on that sentence.
    await zipField.fill(HOME_ZIP);
    await distance.selectOption('10');
    await doctorForm.getByRole('button', { name: 'Search' }).click();
    const nothing = page.getByRole('heading', {
      name: `No doctors found within 10 miles of ${HOME_ZIP}.`,
    });
    await expect(nothing).toBeVisible();
    await expect(nothing).toBeFocused();
    await expect(page.getByText('Things to try:')).toBeVisible();
    await expect(
      page.getByText('Search a wider area: choose "Within 100 miles" under Distance.'),
    ).toBeVisible();
    await expect(page.getByText('Try the zip code of a nearby town or city.')).toBeVisible();
    await expectWellDrawn(page, 'Find a doctor');

    // The wider area it suggests finds the doctors near home.
    await distance.selectOption('100');
    await doctorForm.getByRole('button', { name: 'Search' }).click();
    await expect(results(page)).toHaveCount(5);
    await expect(results(page).first()).toContainText(/\d+\.\d miles away/);
    await distance.selectOption('50');
    await doctorForm.getByRole('button', { name: 'Search' }).click();
    await expect(
      page.getByRole('heading', { name: `${doctorsNear.totalCount} doctors found` }),
    ).toBeVisible();
    await expect(results(page).first()).toContainText(doctorsNear.data[0]?.name ?? '');
    await expectWellDrawn(page, 'Find a doctor');

    const doctor = doctorsNear.data[0]?.name ?? '';
    await page.getByRole('button', { name: `Add ${doctor}` }).click();
    await expect(page.getByText('Doctor added successfully!')).toBeVisible();
    const myDoctors = page.getByRole('region', { name: 'My doctors' }).getByRole('listitem');
    await expect(myDoctors).toHaveCount(1);
    await expect(myDoctors).toContainText(doctor);

    // ---- Pharmacies ----
    await (await menuEntry(page, 'Pharmacies')).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Pharmacies' })).toBeVisible();
    const pharmacyForm = page.getByRole('search', { name: 'Find a pharmacy' });
    await pharmacyForm.getByRole('textbox', { name: 'Zip code' }).fill(HOME_ZIP);
    await pharmacyForm.getByRole('button', { name: 'Search' }).click();
    await expect(results(page)).toHaveCount(Math.min(5, pharmaciesNear.totalCount));
    await expect(results(page).first()).toContainText(pharmaciesNear.data[0]?.name ?? '');
    await expect(results(page).first()).toContainText(/\d+\.\d miles away/);
    const pharmacy = pharmaciesNear.data[0]?.name ?? '';
    await page.getByRole('button', { name: `Add ${pharmacy}` }).click();
    await expect(page.getByText('Pharmacy added successfully!')).toBeVisible();
    const myPharmacies = page.getByRole('region', { name: 'My pharmacies' }).getByRole('listitem');
    await expect(myPharmacies).toHaveCount(1);
    await expect(myPharmacies).toContainText(pharmacy);

    // A name no pharmacy near home has: said so, with the name to leave out.
    await pharmacyForm.getByRole('textbox', { name: 'Name' }).fill('Zzyzx');
    await pharmacyForm.getByRole('button', { name: 'Search' }).click();
    await expect(
      page.getByRole('heading', {
        name: `No pharmacies match this search within 50 miles of ${HOME_ZIP}.`,
      }),
    ).toBeFocused();
    await expect(page.getByText('Leave the name empty to see every pharmacy nearby.')).toBeVisible();
    await expectWellDrawn(page, 'Find a pharmacy');

    // Both reached the server.
    await expect
      .poll(async () =>
        (await directory(request, token, '/api/doctors/list')).data.map((entry) => entry.name),
      )
      .toEqual([doctor]);
    await expect
      .poll(async () =>
        (await directory(request, token, '/api/pharmacies/list')).data.map((entry) => entry.name),
      )
      .toEqual([pharmacy]);
  });
});
