import { FULL_CHROMIUM } from './chromium';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  waitForServiceWorker,
} from './support';

// 'Send a test reminder' on a phone and a laptop: with reminders on for this device, the person can check
// that they arrive, and what went wrong is said in plain words. This machine has no push service, so the
// browser's subscription is one the server never received (as after a reinstall): the server answers
// that it does not know the device, and how to fix it. Sending through a real push service is tested on
// the server (tests/server/push-test.test.ts).

// Notifications and push belong to the full browser (the headless shell offers neither).
test.use(FULL_CHROMIUM);

const ENDPOINT = 'https://push.example.org/kincare-browser-test-unknown-device';

test('with reminders on, "Send a test reminder" says plainly what happened', async ({
  patientPage: page,
  context,
}) => {
  await context.grantPermissions(['notifications']);
  await page.addInitScript((endpoint) => {
    const subscription = {
      endpoint,
      unsubscribe: async () => true,
      toJSON: () => ({ endpoint, keys: { p256dh: 'unused', auth: 'unused' } }),
    };
    PushManager.prototype.getSubscription = async () => subscription as unknown as PushSubscription;
  }, ENDPOINT);
  await page.goto('/prescriptions');
  await waitForServiceWorker(page);
  const reminders = page.getByTestId('reminders');
  await expect(reminders.getByRole('switch', { name: 'Reminders on this device' })).toHaveText('On');

  const send = reminders.getByRole('button', { name: 'Send a test reminder' });
  let sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/push/test');
  await send.click();
  expect((await sent).postDataJSON()).toEqual({ endpoint: ENDPOINT });
  const problem = reminders.getByRole('alert');
  await expect(problem).toHaveText(
    'Kincare does not know this device for reminders yet. Turn reminders off and on again, then send a test.',
  );

  await atEachViewport(page, async () => {
    sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/push/test');
    await send.click();
    await sent;
    await expect(problem).toBeVisible();
    await expect(send).toHaveText('Send a test reminder');
    await expectNoHorizontalOverflow(page, reminders);
    await expectTapTargets(reminders.locator('button:visible'));
    await expectNoAxeViolations(page);
  });
});
