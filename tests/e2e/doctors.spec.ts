import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  bearer,
  createAccount,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  linkCaregiverThroughApi,
  menuEntry,
  signIn,
  VIEWPORTS,
  waitForServiceWorker,
} from './support';

// /doctors: "My doctors" from the device's table (offline too) and "Find a doctor" in the directory (the
// e2e server loads the generated sample around real zips such as 10001); and a caregiver who may only read
// the list. The patient's journey runs once, on a phone; each state is checked at the phone's and the
// laptop's size.

const ADDED = 'Doctor added successfully!';
const SEARCH_OFFLINE = 'Searching the doctor directory needs a connection. Your own list works offline.';
const SPECIALITY = 'Family Medicine';

type DirectoryDoctor = { doctor_id: string; name: string; phone: string | null; address: string };
type SearchPage = { data: DirectoryDoctor[]; totalPages: number; totalCount: number };

/** What the directory answers for a search, asked through the API (the test's expectations). */
async function directoryPage(request: APIRequestContext, token: string, page: number): Promise<SearchPage> {
  const response = await request.get(
    `/api/doctors?zip=10001&speciality=${encodeURIComponent(SPECIALITY)}&page=${page}`,
    { headers: bearer(token) },
  );
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as SearchPage;
}

/** The names in the patient's list as the server holds it. */
async function serverDoctorNames(request: APIRequestContext, token: string): Promise<string[]> {
  const response = await request.get('/api/doctors/list', { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()).data as { name: string }[]).map((entry) => entry.name);
}

async function openDoctors(page: Page) {
  await (await menuEntry(page, 'Doctors')).click();
  await expect(page).toHaveURL(/\/doctors$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Doctors' })).toBeVisible();
}

const results = (page: Page) => page.getByRole('list', { name: 'Search results' }).getByRole('listitem');
const myDoctors = (page: Page) => page.getByRole('region', { name: 'My doctors' }).getByRole('listitem');

/** axe finds nothing in the light theme or the dark one. */
async function expectNoAxeViolationsLightOrDark(page: Page) {
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('on a phone', () => {
  const viewport = VIEWPORTS[0];
  test.use({ viewport });

  test('a patient finds a doctor near a zip, adds them, opens the profile, keeps them offline, and removes them', async ({
    patientPage: page,
    patient,
    context,
    request,
  }) => {
    test.setTimeout(180_000);
    await waitForServiceWorker(page);
    const { token } = patient;
    const [first, second] = [await directoryPage(request, token, 1), await directoryPage(request, token, 2)];
    expect(first.totalPages, 'the sample has more than two pages of this search').toBeGreaterThan(2);
    // The doctor to add: one on page 2 with a phone, so the profile's call link can be checked.
    const chosen = second.data.find((doctor) => doctor.phone) ?? second.data[0];
    if (!chosen) throw new Error('no doctor on page 2');

    await openDoctors(page);
    await expect(page.getByText('No doctors in your list yet.')).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
    });
    // The empty list leads to the search.
    await page.getByRole('button', { name: 'Find a doctor' }).click();
    const form = page.getByRole('search', { name: 'Find a doctor' });
    await expect(form.getByRole('textbox', { name: 'Name' })).toBeFocused();

    // The domain's check of the zip, beside the field.
    await form.getByRole('textbox', { name: 'Zip code' }).fill('100');
    await form.getByRole('button', { name: 'Search' }).click();
    await expect(form.getByText('Zip code must be 5 digits.')).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Zip code' })).toBeFocused();

    await form.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await form.getByRole('combobox', { name: 'Specialty' }).selectOption(SPECIALITY);
    await form.getByRole('button', { name: 'Search' }).click();
    await expect(results(page)).toHaveCount(5);
    await expect(page.getByText(`Page 1 of ${first.totalPages}`, { exact: true })).toBeVisible();
    await expect(results(page).first()).toContainText(first.data[0]?.name ?? '');
    await expect(results(page).first()).toContainText(SPECIALITY);
    await expect(results(page).first()).toContainText(/\d+\.\d miles away/);
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await atEachViewport(page, async () => {
      await expectTapTargets(form.getByRole('button'));
      await expectTapTargets(results(page).getByRole('button'));
      await expectTapTargets(page.getByRole('navigation', { name: 'Result pages' }).getByRole('button'));
      await expectNoHorizontalOverflow(page, results(page).first());
      await expectNoAxeViolationsLightOrDark(page);
    });

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText(`Page 2 of ${first.totalPages}`, { exact: true })).toBeVisible();
    await expect(results(page)).toHaveCount(5);
    await expect(results(page).first()).toContainText(second.data[0]?.name ?? '');

    await page.getByRole('button', { name: `Add ${chosen.name}` }).click();
    await expect(page.getByText(ADDED)).toBeVisible();
    const chosenResult = results(page).filter({ hasText: chosen.name });
    await expect(chosenResult.getByRole('button', { name: 'In your list' })).toBeDisabled();
    // The Add button is gone: focus stays with the doctor just added.
    await expect(chosenResult).toBeFocused();
    await expect(myDoctors(page)).toHaveCount(1);
    await expect(myDoctors(page)).toContainText(chosen.name);
    await expect(myDoctors(page)).toContainText(SPECIALITY);
    await expect.poll(() => serverDoctorNames(request, token)).toEqual([chosen.name]);
    await expect(myDoctors(page).getByText('Not synced yet')).toHaveCount(0);
    // Everything tappable on the screen, the list's entries and the results' buttons included.
    await atEachViewport(page, () =>
      expectTapTargets(
        page.getByRole('main').locator('button:visible, select:visible, a:visible:not(p a), input:visible'),
      ),
    );

    // The profile, as a dialog (a bottom sheet on a phone).
    await myDoctors(page)
      .getByRole('button', { name: new RegExp(`^${chosen.name}`) })
      .click();
    const profile = page.getByRole('dialog', { name: chosen.name });
    // (The dialog's own element has no size: its panel is what shows.)
    await expect(page.getByTestId('doctor-profile')).toBeVisible();
    await expect(profile).toContainText('Accepting new patients');
    await expect(profile).toContainText('NPI');
    const mapLink = profile.getByRole('link', { name: /opens a map/ });
    await expect(mapLink).toHaveAttribute(
      'href',
      /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/,
    );
    await expect(mapLink).toContainText(chosen.address);
    if (chosen.phone) {
      const phoneLink = profile.getByRole('link', { name: chosen.phone });
      await expect(phoneLink).toHaveAttribute('href', /^tel:\+1\d{10}$/);
    }
    await atEachViewport(page, async (size) => {
      await expectTapTargets(profile.getByRole('link'));
      if (size.width < 768) {
        // A bottom sheet: it rests on the bottom edge of the screen.
        await expect
          .poll(async () => {
            const box = await page.getByTestId('doctor-profile').boundingBox();
            return Math.round((box?.y ?? 0) + (box?.height ?? 0));
          })
          .toBe(size.height);
      }
      await expectNoAxeViolations(page);
    });
    await profile.getByRole('button', { name: 'Close' }).click();
    await expect(profile).toBeHidden();

    // An appointment picks the doctor from the list (the server keeps the directory's doctor_id) and
    // shows who it is with: the address as a map link, the phone as a call link.
    await page.goto('/appointments');
    await page.getByRole('button', { name: 'New appointment' }).click();
    const appointmentForm = page.getByRole('form', { name: 'New appointment' });
    await appointmentForm.getByRole('textbox', { name: 'Title' }).fill('Check-up');
    await appointmentForm.getByLabel('Date and time').fill('2031-03-04T10:30');
    await appointmentForm
      .getByRole('combobox', { name: 'Doctor' })
      .selectOption({ label: `${chosen.name} (${SPECIALITY})` });
    await appointmentForm.getByRole('textbox', { name: 'Location' }).fill('Suite 4, second floor');
    await appointmentForm.getByRole('button', { name: 'Add appointment' }).click();
    const withDoctor = page.getByTestId('appointment-doctor');
    await expect(withDoctor).toContainText(`With ${chosen.name}`);
    // Two places on one card: each says what it is, at both sizes.
    await atEachViewport(page, async () => {
      await expect(
        withDoctor.getByRole('link', { name: /^Doctor’s office: .* \(opens a map\)$/ }),
      ).toBeVisible();
      await expect(page.getByTestId('appointment-location')).toHaveText('Location: Suite 4, second floor');
    });
    await expect(withDoctor.getByRole('link', { name: /opens a map/ })).toHaveAttribute(
      'href',
      /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/,
    );
    if (chosen.phone)
      await expect(withDoctor.getByRole('link', { name: chosen.phone })).toHaveAttribute('href', /^tel:/);
    await expect
      .poll(async () => {
        const answer = await request.get('/api/appointments', { headers: bearer(token) });
        return ((await answer.json()).data as { doctor_id: string | null }[]).map((row) => row.doctor_id);
      })
      .toEqual([chosen.doctor_id]);
    await atEachViewport(page, () => expectNoHorizontalOverflow(page, withDoctor));
    await page.goto('/doctors');
    await expect(myDoctors(page)).toContainText(chosen.name);

    // Offline: the list reads the device; the search says it needs a connection.
    await context.setOffline(true);
    await page.reload();
    await expect(myDoctors(page)).toContainText(chosen.name);
    await expect(page.getByText(SEARCH_OFFLINE)).toBeVisible();
    await page.getByRole('search', { name: 'Find a doctor' }).getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText(SEARCH_OFFLINE)).toBeVisible();
    // Said once, in plain words: no failure besides it.
    await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
    await expect(results(page)).toHaveCount(0);
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page);
      await expectNoAxeViolationsLightOrDark(page);
    });

    // Back online: removing asks first.
    await context.setOffline(false);
    await expect(page.getByText(SEARCH_OFFLINE)).toBeHidden();
    await page.getByRole('button', { name: `Remove ${chosen.name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove doctor' });
    await expect(confirm).toContainText(chosen.name);
    await atEachViewport(page, () => expectTapTargets(confirm.getByRole('button')));
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(myDoctors(page)).toHaveCount(1);
    await page.getByRole('button', { name: `Remove ${chosen.name}` }).click();
    await page.getByRole('dialog', { name: 'Remove doctor' }).getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('No doctors in your list yet.')).toBeVisible();
    await expect.poll(() => serverDoctorNames(request, token)).toEqual([]);
    await page.goto('/appointments');
    await expect(page.getByText('With a doctor no longer in the list')).toBeVisible();
  });
});

/**
 * A patient with one doctor in their list, and a caregiver linked with these permissions, signed in and on
 * /caregiver/doctors (through the menu: the care lists must reach the device first).
 */
async function caregiverOnDoctors(
  page: Page,
  request: APIRequestContext,
  names: { patient: string; caregiver: string },
  permissions: string[],
) {
  const patient = await createAccount(request, 'Patient', names.patient);
  const patientToken = patient.token;
  const [doctor] = (await directoryPage(request, patientToken, 1)).data;
  if (!doctor) throw new Error('no doctor in the directory');
  const added = await request.post('/api/doctors/add', {
    headers: bearer(patientToken),
    data: { patient_id: patient.patientId, doctor_id: doctor.doctor_id },
  });
  expect(added.status(), await added.text()).toBe(201);
  const caregiver = await linkCaregiverThroughApi(request, patientToken, names.caregiver, permissions, 'Son');

  await signIn(page, caregiver);
  await (await menuEntry(page, 'Doctors')).click();
  await expect(page).toHaveURL(/\/caregiver\/doctors$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Doctors' })).toBeVisible();
  await expect(myDoctors(page)).toContainText(doctor.name);
  return { doctor, patientToken };
}

test('a caregiver with Read Doctor only sees the list, without search, profile or Remove', async ({
  page,
  request,
}) => {
  const { doctor } = await caregiverOnDoctors(
    page,
    request,
    { patient: 'Pat Listed', caregiver: 'Cam Reader' },
    ['ReadDoctor'],
  );
  await expect(page.getByRole('heading', { name: 'Find a doctor' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Remove ${doctor.name}` })).toHaveCount(0);
  // Without View Doctor Profile the entry is not a button.
  await expect(myDoctors(page).getByRole('button')).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test.describe('at 390x844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a caregiver with Add, Delete and View Profile searches, adds, opens and removes for the patient', async ({
    page,
    request,
  }) => {
    const { doctor, patientToken } = await caregiverOnDoctors(
      page,
      request,
      { patient: 'Pia Helped', caregiver: 'Cal Helper' },
      ['ReadDoctor', 'AddDoctors', 'DeleteDoctor', 'ViewDoctorProfile'],
    );
    const [, another] = (await directoryPage(request, patientToken, 1)).data;
    if (!another) throw new Error('no second doctor in the directory');

    const form = page.getByRole('search', { name: 'Find a doctor' });
    await form.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await form.getByRole('combobox', { name: 'Specialty' }).selectOption(SPECIALITY);
    await form.getByRole('button', { name: 'Search' }).click();
    await expect(results(page)).toHaveCount(5);
    // The doctor the patient has is marked, not offered again.
    await expect(
      results(page).filter({ hasText: doctor.name }).getByRole('button', { name: 'In your list' }),
    ).toBeDisabled();
    await page.getByRole('button', { name: `Add ${another.name}` }).click();
    await expect(page.getByText(ADDED)).toBeVisible();
    await expect(myDoctors(page)).toHaveCount(2);
    await expect.poll(() => serverDoctorNames(request, patientToken)).toContain(another.name);

    // With View Doctor Profile the entry opens the profile.
    await myDoctors(page)
      .getByRole('button', { name: new RegExp(`^${another.name}`) })
      .click();
    const profile = page.getByRole('dialog', { name: another.name });
    await expect(page.getByTestId('doctor-profile')).toBeVisible();
    await expect(profile.getByRole('link', { name: /opens a map/ })).toContainText(another.address);
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(profile).toBeHidden();

    await page.getByRole('button', { name: `Remove ${doctor.name}` }).click();
    await page.getByRole('dialog', { name: 'Remove doctor' }).getByRole('button', { name: 'Remove' }).click();
    await expect(myDoctors(page)).toHaveCount(1);
    await expect.poll(() => serverDoctorNames(request, patientToken)).toEqual([another.name]);
    await expectNoHorizontalOverflow(page);
    await expectTapTargets(page.getByRole('main').locator('button:visible, select:visible, input:visible'));
    await expectNoAxeViolations(page);
  });
});
