import type { APIRequestContext, Locator, Page } from '@playwright/test';
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

// /pharmacies: "My pharmacies" from the device's table (offline too), the preferred one first, and "Find a
// pharmacy" in the directory (the e2e server loads the generated sample around real zips such as 10001);
// and caregivers, who read the list and may search but never change it. The patient's journey runs once,
// on a phone; each state is checked at the phone's and the laptop's size.

const ADDED = 'Pharmacy added successfully!';
const PREFERRED_SAVED = 'Preferred pharmacy saved.';
const SEARCH_OFFLINE = 'Searching for pharmacies needs a connection. Your own list works offline.';
const ZIP_OR_NAME = 'Enter a zip code or a name to search pharmacies.';
const ZIP = '10001';

type DirectoryPharmacy = {
  pharmacy_id: string;
  name: string;
  phone: string | null;
  address: string;
  open_24_hours: boolean | null;
};
type SearchPage = { data: DirectoryPharmacy[]; totalPages: number; totalCount: number };

/** What the directory answers for the zip search, asked through the API (the test's expectations). */
async function directoryPage(request: APIRequestContext, token: string, page: number): Promise<SearchPage> {
  const response = await request.get(`/api/pharmacies?zip=${ZIP}&page=${page}`, { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as SearchPage;
}

/** The patient's list as the server holds it, in the server's order: [name, preferred]. */
async function serverPharmacies(request: APIRequestContext, token: string): Promise<[string, boolean][]> {
  const response = await request.get('/api/pharmacies/list', { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()).data as { name: string; preferred: boolean }[]).map((entry) => [
    entry.name,
    entry.preferred,
  ]);
}

async function openPharmacies(page: Page) {
  await (await menuEntry(page, 'Pharmacies')).click();
  await expect(page).toHaveURL(/\/pharmacies$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pharmacies' })).toBeVisible();
}

const results = (page: Page) => page.getByRole('list', { name: 'Search results' }).getByRole('listitem');
const myPharmacies = (page: Page) =>
  page.getByRole('region', { name: 'My pharmacies' }).getByRole('listitem');

/** The list shows these names in this order, only the first marked "Preferred". */
async function expectListOrder(page: Page, names: string[]) {
  await expect(myPharmacies(page)).toHaveCount(names.length);
  for (const [index, name] of names.entries()) {
    const entry = myPharmacies(page).nth(index);
    await expect(entry.getByRole('heading', { name, exact: true })).toBeVisible();
    await expect(entry.getByText('Preferred', { exact: true })).toHaveCount(index === 0 ? 1 : 0);
  }
}

/** An entry of the list shows its address as a map link, its phone as a call link, and "Open 24 hours". */
async function expectPlaceLinks(entry: Locator, pharmacy: DirectoryPharmacy) {
  const mapLink = entry.getByRole('link', { name: /opens a map/ });
  await expect(mapLink).toHaveAttribute('href', /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/);
  await expect(mapLink).toContainText(pharmacy.address);
  if (pharmacy.phone)
    await expect(entry.getByRole('link', { name: pharmacy.phone })).toHaveAttribute(
      'href',
      /^tel:\+1\d{10}$/,
    );
  await expect(entry.getByText('Open 24 hours')).toHaveCount(pharmacy.open_24_hours ? 1 : 0);
}

/** axe finds nothing in the light theme or the dark one. */
async function expectNoAxeViolationsLightOrDark(page: Page) {
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test('a patient finds pharmacies near a zip, adds two, changes the preferred one, keeps them offline, and removes one', async ({
    patientPage: page,
    patient,
    context,
    request,
  }) => {
    test.setTimeout(180_000);
    await waitForServiceWorker(page);
    const { token } = patient;
    const [first, second] = [await directoryPage(request, token, 1), await directoryPage(request, token, 2)];
    expect(first.totalPages, 'the sample has more than one page near this zip').toBeGreaterThan(1);
    // The first added comes from page 2, the second from page 1.
    const [earlier, later] = [second.data[0], first.data[0]];
    if (!earlier || !later) throw new Error('no pharmacy on page 1 or 2');

    await openPharmacies(page);
    await expect(page.getByText('No pharmacies in your list yet.')).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
    });
    // The empty list leads to the search.
    await page.getByRole('button', { name: 'Find a pharmacy' }).click();
    const form = page.getByRole('search', { name: 'Find a pharmacy' });
    const zipField = form.getByRole('textbox', { name: 'Zip code' });
    await expect(zipField).toBeFocused();

    // Neither a zip nor a name: the domain's words, beside the zip.
    await form.getByRole('button', { name: 'Search' }).click();
    await expect(form.getByText(ZIP_OR_NAME)).toBeVisible();
    await expect(zipField).toBeFocused();

    await zipField.fill(ZIP);
    await form.getByRole('button', { name: 'Search' }).click();
    await expect(results(page)).toHaveCount(first.data.length);
    await expect(page.getByText(`Page 1 of ${first.totalPages}`, { exact: true })).toBeVisible();
    await expect(results(page).first()).toContainText(first.data[0]?.name ?? '');
    await expect(results(page).first()).toContainText(/\d+\.\d miles away/);
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await atEachViewport(page, async () => {
      await expectTapTargets(form.getByRole('button'));
      await expectTapTargets(results(page).getByRole('button'));
      await expectTapTargets(results(page).getByRole('link'));
      await expectTapTargets(page.getByRole('navigation', { name: 'Result pages' }).getByRole('button'));
      await expectNoHorizontalOverflow(page, results(page).first());
      await expectNoAxeViolationsLightOrDark(page);
    });

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText(`Page 2 of ${first.totalPages}`, { exact: true })).toBeVisible();
    await expect(results(page).first()).toContainText(earlier.name);

    // The first pharmacy added is the preferred one.
    await page.getByRole('button', { name: `Add ${earlier.name}` }).click();
    await expect(page.getByText(ADDED)).toBeVisible();
    const earlierResult = results(page).filter({ hasText: earlier.name });
    await expect(earlierResult.getByRole('button', { name: 'In your list' })).toBeDisabled();
    await expect(earlierResult).toBeFocused();
    await expectListOrder(page, [earlier.name]);

    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(page.getByText(`Page 1 of ${first.totalPages}`, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: `Add ${later.name}` }).click();
    await expectListOrder(page, [earlier.name, later.name]);
    await expect
      .poll(() => serverPharmacies(request, token))
      .toEqual([
        [earlier.name, true],
        [later.name, false],
      ]);
    await expect(myPharmacies(page).getByText('Not synced yet')).toHaveCount(0);
    await expectPlaceLinks(myPharmacies(page).nth(0), earlier);
    await expectPlaceLinks(myPharmacies(page).nth(1), later);
    // Everything tappable on the screen, the list's entries and the results' buttons included.
    await atEachViewport(page, async () => {
      await expectTapTargets(
        page.getByRole('main').locator('button:visible, a:visible:not(p.inline a), input:visible'),
      );
      await expectNoHorizontalOverflow(page, myPharmacies(page).first());
      await expectNoAxeViolations(page);
    });

    // Offline, making the second preferred moves it first and the first is no longer preferred: the
    // device keeps one preferred on its own (no server to clear the other).
    await context.setOffline(true);
    await page.getByRole('button', { name: `Make preferred: ${later.name}` }).click();
    await expect(page.getByText(PREFERRED_SAVED)).toBeVisible();
    await expectListOrder(page, [later.name, earlier.name]);
    await expect(page.getByRole('button', { name: `Make preferred: ${later.name}` })).toHaveCount(0);
    await expect(page.getByRole('button', { name: `Make preferred: ${earlier.name}` })).toBeVisible();

    // After a reload the list reads the device, preferred first; the search says it needs a connection.
    await page.reload();
    await expectListOrder(page, [later.name, earlier.name]);
    await expect(page.getByText(SEARCH_OFFLINE)).toBeVisible();
    await zipField.fill(ZIP);
    await form.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText(SEARCH_OFFLINE)).toBeVisible();
    // Said once, in plain words: no failure besides it.
    await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
    await expect(results(page)).toHaveCount(0);
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page);
      await expectNoAxeViolationsLightOrDark(page);
    });

    // Back online: the server takes the change, then removing asks first.
    await context.setOffline(false);
    await expect(page.getByText(SEARCH_OFFLINE)).toBeHidden();
    await expect
      .poll(() => serverPharmacies(request, token))
      .toEqual([
        [later.name, true],
        [earlier.name, false],
      ]);
    await expect(myPharmacies(page).getByText('Not synced yet')).toHaveCount(0);
    await expectListOrder(page, [later.name, earlier.name]);
    await page.getByRole('button', { name: `Remove ${earlier.name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove pharmacy' });
    await expect(confirm).toContainText(earlier.name);
    await atEachViewport(page, () => expectTapTargets(confirm.getByRole('button')));
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(myPharmacies(page)).toHaveCount(2);
    await page.getByRole('button', { name: `Remove ${earlier.name}` }).click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expectListOrder(page, [later.name]);
    await expect.poll(() => serverPharmacies(request, token)).toEqual([[later.name, true]]);
  });
});

/** A caregiver of the patient with these permissions, signed in on the page at the patient's Pharmacies. */
async function caregiverWith(
  page: Page,
  request: APIRequestContext,
  patientToken: string,
  permissions: string[],
) {
  const caregiver = await linkCaregiverThroughApi(request, patientToken, 'Cleo Chemist', permissions);
  await signIn(page, caregiver);
  // The menu offers Pharmacies once the care lists reached the device (a goto before then is refused).
  await (await menuEntry(page, 'Pharmacies')).click();
  await expect(page).toHaveURL(/\/caregiver\/pharmacies$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pharmacies' })).toBeVisible();
}

test('caregivers read the list and, with Search Pharmacy, search; they never add, remove or choose the preferred', async ({
  browser,
  request,
}) => {
  const patient = await createAccount(request, 'Patient', 'Pat Prescribed');
  const patientToken = patient.token;
  const [listed, other] = (await directoryPage(request, patientToken, 1)).data;
  if (!listed || !other) throw new Error('too few pharmacies in the directory');
  for (const pharmacy of [listed, other]) {
    // (The first added is the preferred one in any case; asked here so the test says which.)
    const added = await request.post('/api/pharmacies/add', {
      headers: bearer(patientToken),
      data: {
        patient_id: patient.patientId,
        pharmacy_id: pharmacy.pharmacy_id,
        preferred: pharmacy === listed,
      },
    });
    expect(added.status(), await added.text()).toBe(201);
  }

  // Read Pharmacy only, at desk size: the list, nothing to change, no search.
  const readerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const reader = await readerContext.newPage();
  await caregiverWith(reader, request, patientToken, ['ReadPharmacy']);
  await expect(myPharmacies(reader)).toHaveCount(2);
  await expect(myPharmacies(reader).first()).toContainText(listed.name);
  await expect(myPharmacies(reader).first()).toContainText('Preferred');
  await expect(reader.getByRole('heading', { name: 'Find a pharmacy' })).toHaveCount(0);
  await expect(reader.getByRole('button', { name: /^(Remove|Make preferred)/ })).toHaveCount(0);
  await expect(myPharmacies(reader).getByRole('button')).toHaveCount(0);
  await expectNoAxeViolations(reader);
  await readerContext.close();

  // With Search Pharmacy too, on a phone: the search, to look up a phone or an address, without Add.
  const searcherContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const searcher = await searcherContext.newPage();
  await caregiverWith(searcher, request, patientToken, ['ReadPharmacy', 'SearchPharmacy']);
  await expect(myPharmacies(searcher)).toHaveCount(2);
  const form = searcher.getByRole('search', { name: 'Find a pharmacy' });
  await form.getByRole('textbox', { name: 'Zip code' }).fill(ZIP);
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(results(searcher).first()).toContainText(listed.name);
  await expect(
    results(searcher)
      .getByRole('link', { name: /opens a map/ })
      .first(),
  ).toBeVisible();
  await expect(results(searcher).getByRole('button', { name: /^Add / })).toHaveCount(0);
  await expect(results(searcher).getByRole('button', { name: 'In your list' })).toHaveCount(0);
  await expect(searcher.getByRole('button', { name: /^(Remove|Make preferred)/ })).toHaveCount(0);
  await expectNoHorizontalOverflow(searcher);
  await expectTapTargets(searcher.getByRole('main').locator('button:visible, input:visible'));
  await expectNoAxeViolations(searcher);
  await searcherContext.close();

  // The patient's list did not change.
  const list = await request.get('/api/pharmacies/list', { headers: bearer(patientToken) });
  expect(((await list.json()).data as { name: string }[]).map((entry) => entry.name)).toHaveLength(2);
});
