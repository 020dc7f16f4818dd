import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  VIEWPORTS,
  addAppointmentThroughUi,
  apiToken,
  appointmentTitlesOf,
  atEachViewport,
  bearer,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  menuEntry,
  serverAppointments,
  storedToken,
} from './support';

// The header's sync status says exactly what is true: online or offline, how many changes wait, how many
// the server refused (never 'All changes are sent.' beside a refused one), and when it last synced in words
// a person would use. A change refused for good (a record deleted on another device) offers only Discard;
// one refused for a permission offers Try again too, and once the permission is given back, trying again
// sends it, and the server holds it once. Logging out while the server cannot be reached says so, not that
// the device is offline. Service workers are blocked, so that only the page syncs.

test.use({ serviceWorkers: 'block', viewport: VIEWPORTS[0] });

const status = (page: Page) => page.getByTestId('sync-status');
const panel = (page: Page) => page.getByTestId('sync-status-panel');
const summary = (page: Page) => panel(page).getByTestId('sync-status-summary').locator('p');

async function openPanel(page: Page) {
  if (!(await panel(page).isVisible())) await status(page).click();
  await expect(panel(page)).toBeVisible();
}

async function closePanel(page: Page) {
  await page.keyboard.press('Escape');
  await expect(panel(page)).toBeHidden();
}

/** The panel at each size: what it says, nothing off screen, targets large enough, axe clean. */
async function checkPanelAtEachViewport(page: Page, check: () => Promise<void>) {
  await atEachViewport(page, async () => {
    await openPanel(page);
    await check();
    await expectNoHorizontalOverflow(page, panel(page));
    await expectTapTargets(panel(page).getByRole('button'));
    await expectNoAxeViolations(page);
    await closePanel(page);
  });
}

/** Opens Appointments inside the app (no reload): without a service worker only loaded code works offline. */
async function openAppointments(page: Page, path: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Appointments' }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole('button', { name: 'New appointment' })).toBeVisible();
}

/** The idempotency key of every pushed change whose payload holds `title`, in the order sent. */
function recordPushedKeys(page: Page, title: string): string[] {
  const keys: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname !== '/api/sync/push') return;
    const body = sent.postDataJSON() as { changes: { idempotency_key: string; payload?: unknown }[] };
    for (const change of body.changes)
      if (JSON.stringify(change.payload ?? {}).includes(title)) keys.push(change.idempotency_key);
  });
  return keys;
}

test('the sync status counts what is sent, waits and was refused, online and offline, in plain words', async ({
  patientPage: page,
  context,
  request,
}) => {
  await openAppointments(page, '/appointments');
  await addAppointmentThroughUi(page, 'Checkup');
  await expect.poll(async () => (await serverAppointments(page, request)).length).toBe(1);
  await expect(status(page)).toHaveText(/^.Online$/);

  // Everything sent: it says so, and when, as a person would ('just now', never 'in 0 seconds').
  await checkPanelAtEachViewport(page, async () => {
    await expect(summary(page)).toHaveText(['You are online.', 'All changes are sent.']);
    await expect(panel(page).getByText('Last synced just now.')).toBeVisible();
  });

  // Offline, two new appointments and an edit of one another device deletes meanwhile: three wait.
  const [row] = await serverAppointments(page, request);
  await context.setOffline(true);
  await addAppointmentThroughUi(page, 'Eye exam');
  await addAppointmentThroughUi(page, 'Dentist');
  await page.getByRole('button', { name: 'Edit Checkup' }).click();
  const edit = page.getByRole('form', { name: 'Edit appointment' });
  await edit.getByRole('textbox', { name: 'Title' }).fill('Annual checkup');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  const deleted = await request.delete(`/api/appointments/${row?.id}`, {
    headers: bearer((await storedToken(page)) ?? ''),
  });
  expect(deleted.ok()).toBe(true);
  await expect(status(page)).toHaveAttribute('aria-label', 'Sync status: Offline · 3 changes waiting');
  await checkPanelAtEachViewport(page, async () => {
    await expect(summary(page)).toHaveText([
      'You are offline: changes you make are kept on this device and sent when you are back online.',
      '3 changes wait to be sent.',
    ]);
    await expect(panel(page).getByRole('button', { name: 'Sync now' })).toBeDisabled();
  });

  // Online again: two are sent, the edit of the deleted appointment is refused. The sheet says both, and
  // never that all changes are sent.
  await context.setOffline(false);
  await expect(status(page)).toHaveAttribute('aria-label', 'Sync status: Online · 1 refused');
  expect(
    (await serverAppointments(page, request)).map((appointment) => appointment.appointment_title).sort(),
  ).toEqual(['Dentist', 'Eye exam']);
  const refused = panel(page)
    .getByRole('listitem')
    .filter({ hasText: 'Change to the appointment “Annual checkup”' });
  await checkPanelAtEachViewport(page, async () => {
    await expect(summary(page)).toHaveText([
      'You are online.',
      '1 change was refused by the server; every other change is sent.',
    ]);
    await expect(panel(page)).not.toContainText('All changes are sent.');
    await expect(panel(page).getByRole('heading', { name: 'Refused changes' })).toBeVisible();
    await expect(refused).toContainText('This appointment was deleted on another device');
    // Sending it again would be refused again: Discard is the only way out.
    await expect(refused.getByRole('button')).toHaveText(['Discard']);
  });

  await openPanel(page);
  await refused.getByRole('button', { name: 'Discard' }).click();
  await expect(summary(page)).toHaveText(['You are online.', 'All changes are sent.']);
  await expect(status(page)).toHaveText(/^.Online$/);
});

test('logging out while the server cannot be reached says so, not that the device is offline', async ({
  patientPage: page,
  patient,
  context,
}) => {
  await openAppointments(page, '/appointments');
  await context.setOffline(true);
  await addAppointmentThroughUi(page, 'Eye exam');
  // The device is online again, but nothing answers at the server's address.
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await context.setOffline(false);
  await expect(status(page)).toHaveText(/^.Online/);

  await (await menuEntry(page, 'Logout', 'button')).click();
  const dialog = page.getByRole('dialog', { name: 'Unsent changes' });
  await dialog.getByRole('button', { name: 'Send them first' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'The server could not be reached, so your changes could not be sent. Try again in a moment, or discard them.',
  );
  await atEachViewport(page, async () => {
    await expect(dialog).not.toContainText('offline');
    await expectNoHorizontalOverflow(page, dialog);
    await expectTapTargets(dialog.getByRole('button'));
    await expectNoAxeViolations(page);
  });

  await page.unroute('**/api/**');
  await dialog.getByRole('button', { name: 'Send them first' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await appointmentTitlesOf(page.request, await apiToken(page.request, patient.email))).toEqual([
    'Eye exam',
  ]);
});

test.describe('a caregiver whose permission was withdrawn while offline', () => {
  test.use({ caregiverPermissions: ['ReadAppointment', 'AddAppointment'] });

  /** The patient sets what the caregiver may do (their link's permissions), through the API. */
  async function setPermissions(request: APIRequestContext, patientToken: string, permissions: string[]) {
    const approved = await request.get('/api/request/approved', { headers: bearer(patientToken) });
    const [link] = (await approved.json()).data as { permission_id: string }[];
    const changed = await request.put('/api/request/update-permission', {
      headers: bearer(patientToken),
      data: { permissions, permission_id: link?.permission_id },
    });
    expect(changed.ok(), await changed.text()).toBe(true);
  }

  test('tries the refused change again once the permission is given back, and the server holds it once', async ({
    caregiverPage: page,
    patient,
    context,
    request,
  }) => {
    await openAppointments(page, '/caregiver/appointments');
    const pushed = recordPushedKeys(page, 'Knee check');
    await context.setOffline(true);
    await addAppointmentThroughUi(page, 'Knee check');
    await setPermissions(request, patient.token, ['ReadAppointment']);
    await context.setOffline(false);

    await expect(
      page.getByText(
        'New appointment “Knee check” could not be saved: You do not have permission to do this for this patient.',
      ),
    ).toBeVisible();
    await expect(status(page)).toHaveAttribute('aria-label', 'Sync status: Online · 1 refused');
    const item = panel(page).getByRole('listitem').filter({ hasText: 'New appointment “Knee check”' });
    await checkPanelAtEachViewport(page, async () => {
      await expect(summary(page)).toHaveText([
        'You are online.',
        '1 change was refused by the server; every other change is sent.',
      ]);
      await expect(item).toContainText('You do not have permission to do this for this patient.');
      await expect(item).toContainText('If you have been given permission for this since, try again.');
      await expect(item.getByRole('button')).toHaveText(['Try again', 'Discard']);
      await expect(
        item.getByRole('button', { name: 'Try again: New appointment “Knee check”' }),
      ).toBeVisible();
    });
    expect(await appointmentTitlesOf(request, patient.token)).toEqual([]);

    // The patient gives the permission back; the caregiver tries again: sent, once.
    await setPermissions(request, patient.token, ['ReadAppointment', 'AddAppointment']);
    await openPanel(page);
    await item.getByRole('button', { name: 'Try again' }).click();
    await expect(summary(page)).toHaveText(['You are online.', 'All changes are sent.']);
    await expect(item).toHaveCount(0);
    await closePanel(page);
    await expect(status(page)).toHaveText(/^.Online$/);
    // On the screen, not in the toast about its refusal, which may still be showing.
    await expect(page.locator('main').getByText('Knee check', { exact: true })).toBeVisible();
    expect(await appointmentTitlesOf(request, patient.token)).toEqual(['Knee check']);
    // Pushed twice in all: refused under its first key, taken under a new one; nothing more.
    expect(pushed).toHaveLength(2);
    expect(new Set(pushed).size).toBe(2);
  });
});
