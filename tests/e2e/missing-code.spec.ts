import { test, expect } from './fixtures';
import {
  addAppointmentThroughUi,
  apiToken,
  appointmentTitlesOf,
  atEachViewport,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  menuEntry,
  signIn,
} from './support';

// A screen or a part of one whose code cannot be fetched: what a device meets when it loses its signal
// before the service worker has kept the app's files (src/app/ui/lazy-part.tsx, src/app/shell/route-error.tsx).
// The service worker is blocked here so that the page's own requests for code are the ones refused.
test.use({ serviceWorkers: 'block' });

/** The Vitals screen's own code (its route chunks), not Home's vitals card. */
const VITALS_SCREEN_CODE = /\/assets\/vitals-[\w-]{8}\.js$/;
/** The sync client's code (it loads once the first screen is drawn). */
const SYNC_CLIENT_CODE = /\/assets\/sync-client-[\w-]{8}\.js$/;
/** The microphone beside a form's fields. */
const MICROPHONE_CODE = /\/assets\/voice-input-button-[\w-]{8}\.js$/;

test('a form whose microphone cannot be fetched still saves; a screen whose code cannot be fetched says so and opens on Try again', async ({
  patientPage: page,
}) => {
  await page.route(MICROPHONE_CODE, (route) => route.abort('internetdisconnected'));
  await (await menuEntry(page, 'Medical History')).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Medical History' })).toBeVisible();
  await page
    .getByRole('group', { name: 'Conditions' })
    .getByRole('button', { name: 'Add condition' })
    .click();
  const sheet = page.getByRole('dialog', { name: 'Add condition' });
  await sheet.getByRole('textbox', { name: 'Condition' }).fill('Asthma');
  await sheet.getByRole('button', { name: 'Add condition' }).click();
  await expect(page.getByText('Condition added.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Asthma' })).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);

  let refused = 0;
  await page.route(VITALS_SCREEN_CODE, (route) => {
    refused += 1;
    return route.abort('internetdisconnected');
  });
  await (await menuEntry(page, 'Vitals')).click();
  const alert = page.getByRole('alert').filter({ hasText: 'This screen is not on this device yet' });
  await expect(alert).toBeVisible();
  expect(refused).toBeGreaterThan(0);
  await expect(alert).toContainText('Your records on this device are safe.');
  await atEachViewport(page, async () => {
    await expect(alert).toBeVisible();
    await expectNoHorizontalOverflow(page, alert);
    await expectTapTargets(alert.locator('a, button'));
    await expectNoAxeViolations(page);
  });

  await page.unroute(VITALS_SCREEN_CODE);
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Vitals' })).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test('offline right after the app opened, before its later code came: a new appointment is kept, and sent once online', async ({
  page,
  patient,
  context,
}) => {
  // The sync client's code has not come when the signal goes.
  let syncClientRefused = 0;
  await page.route(SYNC_CLIENT_CODE, (route) => {
    syncClientRefused += 1;
    return route.abort('internetdisconnected');
  });
  await signIn(page, patient, '/appointments');
  await expect(page.getByRole('heading', { level: 1, name: 'Appointments' })).toBeVisible();
  await expect.poll(() => syncClientRefused).toBeGreaterThan(0);
  await context.setOffline(true);
  await page.getByRole('button', { name: 'New appointment' }).click();
  const form = page.getByRole('form', { name: 'New appointment' });
  await form.getByRole('textbox', { name: 'Title' }).fill('Eye exam');
  const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
  const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
  await form.getByLabel('Date and time').fill(`${day}T10:30`);
  await form.getByRole('button', { name: 'Add appointment' }).click();
  await expect(page.locator('main').getByText('Eye exam')).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);

  // Back online, the code can come: the change waiting on the device reaches the server.
  await page.unroute(SYNC_CLIENT_CODE);
  await context.setOffline(false);
  const token = await apiToken(page.request, patient.email);
  await expect
    .poll(() => appointmentTitlesOf(page.request, token), { timeout: 20_000 })
    .toEqual(['Eye exam']);
});

test('online, the sync client whose code failed to come is asked for again, and a change made meanwhile is sent', async ({
  page,
  patient,
}) => {
  // A weak signal: the fetch fails though the device says it is online, so no online event will come.
  let syncClientRefused = 0;
  await page.route(SYNC_CLIENT_CODE, (route) => {
    syncClientRefused += 1;
    return route.abort('failed');
  });
  await signIn(page, patient, '/appointments');
  await expect(page.getByRole('heading', { level: 1, name: 'Appointments' })).toBeVisible();
  await expect.poll(() => syncClientRefused).toBeGreaterThan(0);
  await addAppointmentThroughUi(page, 'Dentist');
  await expect(page.locator('main').getByText('Dentist')).toBeVisible();

  await page.unroute(SYNC_CLIENT_CODE);
  const token = await apiToken(page.request, patient.email);
  await expect.poll(() => appointmentTitlesOf(page.request, token), { timeout: 20_000 }).toEqual(['Dentist']);
});
