import { TINY_PNG } from '../fixtures/images';
import { expect, test } from './fixtures';
import {
  addAppointmentThroughUi,
  bearer,
  expectNoAxeViolations,
  firstPullOfNextDocument,
  serverAppointments,
  signIn,
  waitForServiceWorker,
} from './support';

// Appointments, and through them the offline queue every record screen shares (src/local/outbox.ts): a
// change made offline survives a reload, reaches the server once on reconnecting, merges across tabs, is
// sent by the service worker alone (background-sync.spec.ts), carries its file first, and the app syncs on its own triggers. The
// other record screens test what is theirs (their forms, lists and permissions) over the same queue.

test('offline: create and edit, reload while offline, reconnect: the server holds exactly one, edited; delete asks first', async ({
  patientPage: page,
  context,
  request,
}) => {
  await waitForServiceWorker(page);
  await page.getByRole('link', { name: 'Appointments' }).click();
  await expect(page.getByRole('heading', { name: 'Appointments', exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // The form checks its fields with clear messages.
  await page.getByRole('button', { name: 'New appointment' }).click();
  const form = page.getByRole('form', { name: 'New appointment' });
  await form.getByRole('button', { name: 'Add appointment' }).click();
  await expect(form.getByText('Title is required.')).toBeVisible();
  await expect(form.getByText('Date is required.')).toBeVisible();
  // The picker steps by 15 minutes; a typed time in any minute is taken as it is.
  await expect(form.getByLabel('Date and time')).toHaveAttribute('step', '900');
  await form.getByLabel('Date and time').fill('2027-01-05T10:10');
  await expect(form.getByLabel('Date and time')).toHaveValue('2027-01-05T10:10');
  await expect(form.getByText('Date is required.')).toBeHidden();
  await expect(form.getByText(/hour or half hour/)).toHaveCount(0);
  await form.getByRole('button', { name: 'Cancel' }).click();
  // Cancelling gives the focus back to the button that opened the form.
  await expect(page.getByRole('button', { name: 'New appointment' })).toBeFocused();

  await context.setOffline(true);
  await expect(page.getByTestId('sync-status')).toContainText('Offline');
  await addAppointmentThroughUi(page, 'Eye exam');
  await expect(page.getByTestId('sync-status')).toContainText('1 change waiting');
  await page.getByRole('button', { name: 'Edit Eye exam' }).click();
  const edit = page.getByRole('form', { name: 'Edit appointment' });
  await edit.getByRole('textbox', { name: 'Title' }).fill('Eye exam with drops');
  await edit.getByRole('textbox', { name: 'Location' }).fill('Vision Center');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Eye exam with drops')).toBeVisible();
  await expect(page.getByTestId('sync-status')).toContainText('2 changes waiting');
  // The date reads as 'ddd, MMM DD, YYYY' and the time on the browser locale's clock (10:30 AM in en-US).
  await expect(page.getByText(/^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{2}, \d{4}, 10:30( AM)?$/)).toBeVisible();

  await page.reload();
  await expect(page.getByText('Eye exam with drops')).toBeVisible();
  await expect(page.getByText('Vision Center')).toBeVisible();

  await context.setOffline(false);
  await expect
    .poll(
      async () =>
        (await serverAppointments(page, request)).map((row) => [row.appointment_title, row.location]),
      { timeout: 2000, intervals: [100] },
    )
    .toEqual([['Eye exam with drops', 'Vision Center']]);
  await expect(page.getByTestId('sync-status')).toHaveText(/^.Online$/);
  await page.getByTestId('sync-status').click();
  await expect(page.getByText('All changes are sent.')).toBeVisible();
  await expect(page.getByText('Last synced just now.')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');

  // Delete asks for confirmation; Cancel keeps the appointment.
  await page.getByRole('button', { name: 'Delete Eye exam with drops' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete appointment' });
  await expect(dialog).toContainText(
    'Are you sure you want to delete this appointment? This action cannot be undone.',
  );
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Eye exam with drops')).toBeVisible();
  await page.getByRole('button', { name: 'Delete Eye exam with drops' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No upcoming appointments.')).toBeVisible();
  await expect.poll(async () => (await serverAppointments(page, request)).length).toBe(0);
});

test('two tabs offline both edit; on reconnect there are no duplicates and both show the merged result', async ({
  patientPage: page,
  context,
  request,
}) => {
  await waitForServiceWorker(page);
  await page.goto('/appointments');
  await addAppointmentThroughUi(page, 'Physio');
  await expect.poll(async () => (await serverAppointments(page, request)).length).toBe(1);
  const second = await context.newPage();
  await second.goto('/appointments');
  await expect(second.getByText('Physio')).toBeVisible();

  await context.setOffline(true);
  await page.getByRole('button', { name: 'Edit Physio' }).click();
  await page
    .getByRole('form', { name: 'Edit appointment' })
    .getByRole('textbox', { name: 'Location' })
    .fill('Gym B');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await second.getByRole('button', { name: 'Edit Physio' }).click();
  await second
    .getByRole('form', { name: 'Edit appointment' })
    .getByRole('textbox', { name: 'Notes' })
    .fill('Bring shoes');
  await second.getByRole('button', { name: 'Save changes' }).click();
  await context.setOffline(false);

  await expect
    .poll(
      async () =>
        (await serverAppointments(page, request)).map((row) => [
          row.appointment_title,
          row.location,
          row.notes,
        ]),
      { timeout: 5000 },
    )
    .toEqual([['Physio', 'Gym B', 'Bring shoes']]);
  for (const tab of [page, second]) {
    await expect(tab.getByText('Gym B')).toBeVisible();
    await expect(tab.getByText('Bring shoes')).toBeVisible();
    await expect(tab.getByRole('listitem').filter({ hasText: 'Physio' })).toHaveCount(1);
  }
});

test('a file attached offline opens from the device, and is uploaded before the appointment on reconnect', async ({
  patientPage: page,
  context,
  request,
}) => {
  await waitForServiceWorker(page);
  await page.goto('/appointments');
  await context.setOffline(true);
  await page.getByRole('button', { name: 'New appointment' }).click();
  const form = page.getByRole('form', { name: 'New appointment' });
  await form
    .getByLabel(/^Attachment/)
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(form.getByText('Upload a photo (PNG, JPEG, WebP or HEIC) or a PDF.')).toBeVisible();
  await form
    .getByLabel(/^Attachment/)
    .setInputFiles({ name: 'referral.png', mimeType: 'image/png', buffer: TINY_PNG });
  await form.getByRole('textbox', { name: 'Title' }).fill('Dermatology referral');
  await form.getByLabel('Date and time').fill('2027-02-01T14:00');
  await form.getByRole('button', { name: 'Add appointment' }).click();
  const [local] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'View attachment' }).click(),
  ]);
  expect(local.url()).toMatch(/^blob:/);
  await local.close();

  await context.setOffline(false);
  await expect
    .poll(
      async () =>
        (await serverAppointments(page, request)).map(
          (row) => (row as { attachment_key?: string }).attachment_key ?? '',
        ),
      { timeout: 5000 },
    )
    .toEqual([expect.stringMatching(/^appointment\/[0-9a-f]{32}\/[0-9a-f]{32}\.png$/)]);
  const [remote] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'View attachment' }).click(),
  ]);
  await remote.waitForLoadState();
  expect(remote.url()).toContain('/api/files/appointment/');
});

test('the open app syncs on start, when it becomes visible, and every few minutes', async ({
  page,
  patient,
  request,
}) => {
  await page.clock.install();
  // A record on screen can come from the device's table before the page's own sync has run: each step
  // waits for that page's first pull, so a sync still under way cannot bring in the next step's record.
  const startPull = firstPullOfNextDocument(page);
  await signIn(page, patient, '/appointments');
  await startPull;
  await expect(page.getByText('No upcoming appointments.')).toBeVisible();
  // Another device books; this page hears of it only through its own triggers.
  const book = async (title: string) => {
    const response = await request.post('/api/appointments', {
      headers: bearer(patient.token),
      data: {
        id: crypto.randomUUID(),
        patient_id: patient.patientId,
        appointment_title: title,
        appointment_date: '2027-04-01T09:00:00Z',
      },
    });
    expect(response.status()).toBe(201);
  };
  await book('Seen on start');
  const pullAfterReload = firstPullOfNextDocument(page);
  await page.reload();
  await pullAfterReload;
  await expect(page.getByText('Seen on start')).toBeVisible();
  // Half a second of the page's time passes (its timers run, no real waiting): nothing syncs on its own.
  await book('Seen when visible');
  await page.clock.runFor(500);
  await expect(page.getByText('Seen when visible')).toBeHidden();
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(page.getByText('Seen when visible')).toBeVisible();
  await book('Seen a few minutes later');
  await page.clock.runFor(500);
  await expect(page.getByText('Seen a few minutes later')).toBeHidden();
  await page.clock.fastForward('03:01');
  await expect(page.getByText('Seen a few minutes later')).toBeVisible();
});
