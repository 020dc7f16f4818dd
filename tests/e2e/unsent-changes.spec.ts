import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  PASSWORD,
  VIEWPORTS,
  acceptBetaPolicyIfAsked,
  addAppointmentThroughUi,
  apiToken,
  appointmentTitlesOf,
  atEachViewport,
  createAccount,
  createVerifiedUser,
  endSessionsElsewhere,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  indexedDbNames,
  menuEntry,
  outboxSize,
  signIn,
  signInThroughUi,
  storedToken,
  syncNow,
} from './support';

// No change is lost without the person deciding it: signing out with unsent changes, a session that ends
// with changes queued (the person is told why, and that their changes wait for them), another person
// signing in on a device that holds them (deleted, never sent under that person's session), and a change
// the server refused. Service workers are blocked so that only the page syncs, at steps the test chooses
// (the worker's own replay is tested in appointments.spec.ts). Each journey runs once; the dialogs and the
// sync status are checked at the phone's and the laptop's size.

test.use({ serviceWorkers: 'block' });

const replicaNames = async (page: Page) =>
  (await indexedDbNames(page)).filter((name) => name.startsWith('kincare-') && name !== 'kincare-session');

/** The signed-in user's id (the token's `sub`), or null when nobody is signed in on this page. */
async function signedInUserId(page: Page): Promise<string | null> {
  const payload = (await storedToken(page))?.split('.')[1];
  return payload ? (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string }).sub : null;
}

/** The appointments the server holds for the signed-in user of this page (asked with the page's token). */
async function serverAppointments(page: Page, request: APIRequestContext): Promise<{ id: string }[]> {
  const token = await storedToken(page);
  const response = await request.get('/api/appointments', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return (await response.json()).data;
}

const logoutButton = (page: Page) => menuEntry(page, 'Logout', 'button');

/** Where focus goes back when the logout question is cancelled: Logout in the sidebar, More on a phone. */
async function logoutOpener(page: Page) {
  const tabs = page.getByTestId('tab-bar');
  return (page.viewportSize()?.width ?? 1280) < 768
    ? tabs.getByRole('button', { name: 'More' })
    : page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' });
}

/**
 * Opens the appointments page inside the app (no reload): with no service worker, only the code this
 * document has loaded works offline, and the sign-in page's must stay loaded for signing out offline.
 */
async function openAppointments(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Appointments' }).click();
  await expect(page.getByRole('button', { name: 'New appointment' })).toBeVisible();
}

/** What the device says when a session ends with `kept` changes unsent (shell/session-ended.tsx). */
const sessionEndedText = (kept: string) =>
  'Your session on this device has ended: your password was changed, this device was signed out from ' +
  `another one, or your sign-in expired. Please sign in again. ${kept} and will be sent when you sign in again.`;

/** Every push this page sends, with the token it went with and what it carried. */
function recordPushes(page: Page): { authorization: string | undefined; body: string }[] {
  const pushes: { authorization: string | undefined; body: string }[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/api/sync/push')
      pushes.push({ authorization: sent.headers().authorization, body: sent.postData() ?? '' });
  });
  return pushes;
}

/** Fills the sign-in form and submits it, without waiting for where it leads. */
async function submitSignIn(page: Page, email: string, password = PASSWORD) {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test('logout with unsent changes asks first; sending says why it cannot, then sends and signs out', async ({
    patientPage: page,
    patient,
    context,
    request,
  }) => {
    const { email } = patient;
    await openAppointments(page);
    await context.setOffline(true);
    await addAppointmentThroughUi(page, 'Eye exam');
    await addAppointmentThroughUi(page, 'Dentist');
    await expect(page.getByTestId('sync-status')).toContainText('2 changes waiting');

    // At each size: the question, and Escape is Cancel: still signed in, changes kept, focus back where
    // the person asked to log out (More on a phone, Logout in the sidebar).
    const dialog = page.getByRole('dialog', { name: 'Unsent changes' });
    await atEachViewport(page, async () => {
      await (await logoutButton(page)).click();
      await expect(dialog).toContainText('You have 2 changes that have not been sent yet.');
      await expect(dialog.getByRole('button', { name: 'Send them first' })).toBeFocused();
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page, dialog);
      await expectTapTargets(dialog.getByRole('button'));
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(await logoutOpener(page)).toBeFocused();
      await expect(page).toHaveURL(/\/appointments$/);
    });
    await (await logoutButton(page)).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('sync-status')).toContainText('2 changes waiting');

    // Offline, nothing can be sent: it says so and stays.
    await (await logoutButton(page)).click();
    await dialog.getByRole('button', { name: 'Send them first' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'You are offline, so your changes could not be sent. Connect to the internet and try again, or discard them.',
    );
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page, dialog);
      await expectNoAxeViolations(page);
    });

    // Online, but the server does not take them yet: it says so and stays.
    await page.route('**/api/**', (route) =>
      route.fulfill({ status: 503, json: { message: 'Service unavailable' } }),
    );
    await context.setOffline(false);
    await dialog.getByRole('button', { name: 'Send them first' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Your changes could not be sent: the server did not take them just now. Try again in a moment, or discard them.',
    );
    await expect(page).toHaveURL(/\/appointments$/);

    await page.unroute('**/api/**');
    await dialog.getByRole('button', { name: 'Send them first' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await replicaNames(page)).toEqual([]);
    expect(await appointmentTitlesOf(request, await apiToken(request, email))).toEqual([
      'Dentist',
      'Eye exam',
    ]);
  });

  test('"Discard and sign out" signs out and deletes the unsent change', async ({
    page,
    context,
    request,
  }) => {
    // From the laptop's sidebar (the phone's More sheet is the way out in the test above). Signed in
    // through the form: the sign-in page's code must be in this document to sign out offline.
    await page.setViewportSize(VIEWPORTS[1]);
    const { email } = await createVerifiedUser(request, 'Patient', 'Dora Discard');
    await signInThroughUi(page, email);
    await openAppointments(page);
    await context.setOffline(true);
    await addAppointmentThroughUi(page, 'Flu shot');
    await (await logoutButton(page)).click();
    const dialog = page.getByRole('dialog', { name: 'Unsent changes' });
    await expect(dialog).toContainText('You have 1 change that has not been sent yet.');
    await dialog.getByRole('button', { name: 'Discard and sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await replicaNames(page)).toEqual([]);
    expect(await storedToken(page)).toBeNull();
    await context.setOffline(false);
    expect(await appointmentTitlesOf(request, await apiToken(request, email))).toEqual([]);
  });

  test('after a 401 the queued change stays on the device and goes out when the same person signs in again', async ({
    patientPage: page,
    patient,
    context,
    request,
  }) => {
    const { email } = patient;
    const userId = await signedInUserId(page);
    await openAppointments(page);
    await context.setOffline(true);
    await addAppointmentThroughUi(page, 'Eye exam');
    const password = await endSessionsElsewhere(request, email);
    await context.setOffline(false); // the sync that follows is answered 401
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Unauthorized', { exact: true })).toBeVisible();
    await expect(
      page.getByText(sessionEndedText('Your 1 unsent change is kept on this device'), { exact: true }),
    ).toBeVisible();
    await atEachViewport(page, () => expectNoHorizontalOverflow(page));
    // The device forgot the person except the queued change: no token, the change kept.
    expect(await storedToken(page)).toBeNull();
    expect(await outboxSize(page, userId ?? '')).toBe(1);
    const token = await apiToken(request, email, password);
    expect(await appointmentTitlesOf(request, token)).toEqual([]);

    // The same person: no question, the replica is kept and its queue goes out.
    await signInThroughUi(page, email, password);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect.poll(() => appointmentTitlesOf(request, token)).toEqual(['Eye exam']);
    await expect.poll(() => outboxSize(page, userId ?? '')).toBe(0);
    await page.goto('/appointments');
    await expect(page.getByText('Eye exam')).toBeVisible();
  });

  test("another person signing in is told how many of the earlier person's unsent changes will be deleted, and they are never sent", async ({
    page,
    context,
    request,
  }) => {
    const earlier = await createAccount(request, 'Patient', 'Ada Earlier');
    const later = await createAccount(request, 'Patient', 'Ben Later');
    await signIn(page, earlier);
    const earlierId = await signedInUserId(page);
    const earlierToken = await storedToken(page);
    const pushes = recordPushes(page);
    await openAppointments(page);
    await context.setOffline(true);
    await addAppointmentThroughUi(page, 'Eye exam');
    await addAppointmentThroughUi(page, 'Dentist');
    const earlierPassword = await endSessionsElsewhere(request, earlier.email);
    await context.setOffline(false);
    await expect(page).toHaveURL(/\/login$/);
    await expect(
      page.getByText(sessionEndedText('Your 2 unsent changes are kept on this device'), { exact: true }),
    ).toBeVisible();

    await submitSignIn(page, later.email);
    const dialog = page.getByRole('dialog', { name: 'Unsent changes on this device' });
    await expect(dialog).toContainText(
      'This device holds 2 unsent changes of the person who used Kincare here before. Signing in as you will delete them.',
    );
    // Nothing of the earlier person but the count.
    for (const secret of [earlier.email, earlier.name, 'Eye exam', 'Dentist'])
      await expect(dialog).not.toContainText(secret);
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page, dialog);
      await expectTapTargets(dialog.getByRole('button'));
    });

    // Cancel: not signed in, the earlier replica as it was.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedToken(page)).toBeNull();
    expect(await outboxSize(page, earlierId ?? '')).toBe(2);

    await page.getByRole('form', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click();
    await dialog.getByRole('button', { name: 'Delete them and continue' }).click();
    await expect(page.getByText('Logged in successfully')).toBeVisible();
    await acceptBetaPolicyIfAsked(page);
    const laterId = await signedInUserId(page);
    expect(await replicaNames(page)).toEqual([`kincare-${laterId}`]);
    // Once the later person's device has synced, neither account holds the earlier person's changes, and
    // no push carried them but the ones refused with the earlier person's ended token.
    await syncNow(page);
    expect(
      await appointmentTitlesOf(request, await apiToken(request, earlier.email, earlierPassword)),
    ).toEqual([]);
    expect(await appointmentTitlesOf(request, await apiToken(request, later.email))).toEqual([]);
    const carriedEarlierChanges = () =>
      pushes
        .filter((push) => push.body.includes('Eye exam') || push.body.includes('Dentist'))
        .map((push) => push.authorization)
        .filter((authorization) => authorization !== `Bearer ${earlierToken}`);
    expect(carriedEarlierChanges()).toEqual([]);

    // A replica with nothing unsent is deleted when the session ends, and the next sign-in asks nothing.
    await endSessionsElsewhere(request, later.email);
    await page.reload(); // the sync on start is answered 401
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => outboxSize(page, laterId ?? '')).toBeNull();
    await submitSignIn(page, earlier.email, earlierPassword);
    await expect(page.getByText('Logged in successfully')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await replicaNames(page)).toEqual([`kincare-${earlierId}`]);
    // Deleted means deleted: the earlier person signing in again sends nothing of it.
    await syncNow(page);
    expect(await outboxSize(page, earlierId ?? '')).toBe(0);
    expect(
      await appointmentTitlesOf(request, await apiToken(request, earlier.email, earlierPassword)),
    ).toEqual([]);
    expect(carriedEarlierChanges()).toEqual([]);
  });

  test('a refused change is rolled back, named with its reason and what the person had typed, and can be discarded', async ({
    patientPage: page,
    context,
    request,
  }) => {
    await openAppointments(page);
    await addAppointmentThroughUi(page, 'Checkup');
    await expect.poll(async () => (await serverAppointments(page, request)).length).toBe(1);
    await expect(page.getByTestId('sync-status')).toHaveText(/^.Online$/);
    const [row] = await serverAppointments(page, request);
    const token = await storedToken(page);

    // This device edits offline while another device deletes the appointment.
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Edit Checkup' }).click();
    const edit = page.getByRole('form', { name: 'Edit appointment' });
    await edit.getByRole('textbox', { name: 'Title' }).fill('Annual checkup');
    await edit.getByLabel('Date and time').fill('2027-03-04T09:00');
    await edit.getByLabel('Status').selectOption('completed');
    await edit.getByRole('textbox', { name: 'Location' }).fill('Lab 2, second floor');
    await edit.getByRole('textbox', { name: 'Notes' }).fill('Fasting since midnight');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    const deleted = await request.delete(`/api/appointments/${row?.id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(deleted.ok()).toBe(true);
    await context.setOffline(false);

    await expect(
      page.getByText(
        'Change to the appointment “Annual checkup” could not be saved: This appointment was deleted on another device, so your change was not applied.',
      ),
    ).toBeVisible();
    await expect(page.getByTestId('sync-status')).toContainText('1 refused');

    // A refused change counts as unsent at logout, and sending it again is not offered as a way out.
    await (await logoutButton(page)).click();
    const dialog = page.getByRole('dialog', { name: 'Unsent changes' });
    await expect(dialog).toContainText('You have 1 change that has not been sent yet.');
    await expect(dialog).toContainText('It was refused by the server: the sync status shows what you typed.');
    await dialog.getByRole('button', { name: 'Send them first' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'The server refused this change, so sending again will not help. Cancel and open the sync status to see what you typed, or discard it.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The sync status lists it (a sheet on a phone, a panel under the header on a laptop).
    const panel = page.getByTestId('sync-status-panel');
    const item = panel
      .getByRole('listitem')
      .filter({ hasText: 'Change to the appointment “Annual checkup”' });
    await atEachViewport(page, async () => {
      await page.getByTestId('sync-status').click();
      await expect(panel.getByRole('heading', { name: 'Refused changes' })).toBeVisible();
      await expect(item).toContainText('This appointment was deleted on another device');
      await expect(item).toContainText('What you entered:');
      await expect(item.locator('dt')).toHaveText(['Title', 'Date and time', 'Status', 'Location', 'Notes']);
      await expect(item.locator('dd')).toHaveText([
        'Annual checkup',
        /^Thu, Mar 04, 2027, (09:00|9:00 AM)$/,
        'Completed',
        'Lab 2, second floor',
        'Fasting since midnight',
      ]);
      await expectNoHorizontalOverflow(page, panel);
      await expectTapTargets(panel.getByRole('button'));
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await expect(panel).toBeHidden();
    });

    // Discarded, the appointment is as the server has it: deleted.
    await page.getByTestId('sync-status').click();
    await item.getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByTestId('sync-status')).not.toContainText('refused');
    await expect(page.getByText('No upcoming appointments.')).toBeVisible();
  });
});
