import type { Page } from '@playwright/test';
import { startFakeFitbit, type FakeFitbit } from '../server/fake-fitbit';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  bearer,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  signIn,
  VIEWPORTS,
  waitForServiceWorker,
} from './support';

// Fitbit (Home's card and /fitbit/callback) in the browser against the real server,
// whose FITBIT_* settings (playwright.config.ts: the app's port + 2) point at a fake Fitbit this spec
// starts: its sign-in page approves at once and sends the browser back to /fitbit/callback?code=&state=.
// The patient connects from Home, sees 'Connecting to Fitbit...', the server's message as a toast, and
// the 30-day charts on /dashboard; offline, after a reload, the charts are still there. The journey runs
// once, on a phone; each state is checked at the phone's and the laptop's size.

// The fake listens on a fixed port: this file's tests run in order, in one worker.
test.describe.configure({ mode: 'default' });

let fake: FakeFitbit;
test.beforeAll(async () => {
  const port = Number(new URL(process.env.E2E_BASE_URL ?? 'http://localhost:8181').port) + 2;
  fake = await startFakeFitbit({ clientId: 'e2e-fitbit-client', port });
});
test.afterAll(async () => {
  await fake.stop();
});

const card = (page: Page) => page.getByTestId('home-fitbit');

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test('a patient connects Fitbit from Home and sees 30 days of charts, offline after a reload too', async ({
    patientPage: page,
    context,
  }) => {
    test.setTimeout(180_000);
    await waitForServiceWorker(page);

    const connect = card(page).getByRole('button', { name: 'Connect Fitbit' });
    await expect(connect).toBeVisible();
    await expect(card(page)).toContainText('Connect your Fitbit to see your steps');
    await atEachViewport(page, async () => {
      await expectTapTargets(card(page).getByRole('button'));
      await expectNoHorizontalOverflow(page, card(page));
      await expectNoAxeViolations(page);
    });

    // Fitbit answers the code only after the callback page has said what it is doing.
    let releaseToken: () => void = () => undefined;
    const tokenHeld = new Promise<void>((resolve) => {
      releaseToken = resolve;
    });
    await page.route('**/api/fitbit/callback', async (route) => {
      await tokenHeld;
      await route.continue();
    });
    await connect.click();
    await page.waitForURL(/\/fitbit\/callback\?code=/);
    await expect(page.getByText('Connecting to Fitbit...')).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page);
      await expectNoAxeViolations(page);
    });
    releaseToken();

    await expect(page.locator('[data-rht-toaster]')).toContainText('Fitbit connected.');
    await page.waitForURL(/\/dashboard$/);
    const charts = card(page).getByTestId('fitbit-charts');
    await expect(charts).toBeVisible();
    await expect(charts.getByRole('img')).toHaveCount(3);
    const last = fake.days[29];
    await expect(
      charts.getByRole('img', { name: /^Steps, 30 days: 29|^Steps, 30 days: 30/ }),
    ).toHaveAttribute('aria-label', new RegExp(`latest ${(last?.steps ?? 0).toLocaleString('en-US')} steps`));
    await expect(card(page).locator('rect')).not.toHaveCount(0);
    await expect(card(page)).toContainText('Last 30 days, as of');
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page, card(page));
      await expectTapTargets(card(page).locator('summary'));
      await expectNoAxeViolations(page);
    });

    // No signal, and the app opened afresh: the saved charts, with the time they are from.
    await context.setOffline(true);
    await page.reload();
    await expect(card(page).getByTestId('fitbit-charts').getByRole('img')).toHaveCount(3);
    await expect(card(page)).toContainText('offline: the last summary this device saved');
    await card(page).getByText('Show the values').first().click();
    await expect(card(page).getByRole('table').first()).toContainText(
      (fake.days[0]?.steps ?? 0).toLocaleString('en-US'),
    );
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page, card(page));
      await expectNoAxeViolations(page);
    });

    // Back online the patient disconnects: asked once more, then Home offers to connect again.
    await context.setOffline(false);
    await card(page).getByRole('button', { name: 'Disconnect Fitbit' }).click();
    await expect(card(page)).toContainText('Disconnect Fitbit? Kincare forgets your Fitbit days');
    await expectTapTargets(card(page).getByRole('button'));
    await card(page).getByRole('button', { name: 'Disconnect', exact: true }).click();
    await expect(page.locator('[data-rht-toaster]')).toContainText('Fitbit disconnected.');
    await expect(card(page).getByRole('button', { name: 'Connect Fitbit' })).toBeVisible();
    await expect(card(page).getByTestId('fitbit-charts')).toHaveCount(0);
  });
});

test('a callback without a code says so and offers the way back', async ({ page, patient }) => {
  await signIn(page, patient, '/fitbit/callback?error=access_denied');
  await expect(page.getByRole('alert')).toContainText('Fitbit was not connected');
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await page.waitForURL(/\/dashboard$/);
});

test.describe('a caregiver', () => {
  test.use({
    viewport: VIEWPORTS[0],
    patientName: 'Petra Pedometer',
    caregiverName: 'Carl Carer',
    caregiverPermissions: ['ReadMedicalHistory'],
  });

  test('a caregiver with Read Medical History sees the patient’s Fitbit charts, read-only', async ({
    page,
    patient,
    caregiver,
    request,
  }) => {
    const patientToken = patient.token;
    // The patient connects through the API, as the app would: Fitbit's page sends back a code and state.
    const started = await request.get('/api/fitbit/authorize', { headers: bearer(patientToken) });
    expect(started.ok(), await started.text()).toBe(true);
    const approved = await request.get(((await started.json()) as { url: string }).url, { maxRedirects: 0 });
    const back = new URL(approved.headers().location ?? '');
    const connected = await request.post('/api/fitbit/callback', {
      headers: bearer(patientToken),
      data: {
        code: back.searchParams.get('code'),
        state: back.searchParams.get('state'),
        userId: patient.userId,
      },
    });
    expect(connected.ok(), await connected.text()).toBe(true);

    await signIn(page, caregiver);
    await expect(card(page).getByTestId('fitbit-charts').getByRole('img')).toHaveCount(3);
    await expect(card(page).getByRole('button')).toHaveCount(0);
    await expectNoHorizontalOverflow(page, card(page));
    await expectNoAxeViolations(page);
  });
});
