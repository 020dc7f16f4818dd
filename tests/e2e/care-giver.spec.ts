import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  latestMailTo,
  linkCaregiverThroughApi,
  menuEntry,
  signIn,
  uniqueEmail,
  VIEWPORTS,
  waitForServiceWorker,
  bearer,
} from './support';

// /care-giver (patient): invite a caregiver by e-mail, the Sent list, the patient's caregivers (edit
// permissions, remove) and their activity, and what the page does offline. Each journey runs once, on a
// phone; every state is checked at the phone's and the laptop's size.

const OFFLINE_TEXT = 'You are offline. This needs a connection; please try again when you are back online.';

/** A caregiver linked the way people do it: the patient invites, the caregiver accepts with their own token. */
const linkCaregiver = (
  request: APIRequestContext,
  patientToken: string,
  name: string,
  permissions: string[],
) => linkCaregiverThroughApi(request, patientToken, name, permissions, 'Son');

/** What the caregiver of `token` may do for their (one) patient, as the server says. */
async function grantedPermissions(request: APIRequestContext, token: string): Promise<string[][]> {
  const response = await request.get('/api/request/associate-patients', { headers: bearer(token) });
  expect(response.ok()).toBe(true);
  return ((await response.json()).assigned_patients as { permissions: string[] }[]).map((patient) =>
    [...patient.permissions].sort(),
  );
}

async function openCaregivers(page: Page) {
  await (await menuEntry(page, 'Caregivers')).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Caregivers' })).toBeVisible();
}

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test('a patient invites a caregiver by e-mail, sees it under Sent, and deletes it', async ({
    patientPage: page,
    patient,
    request,
  }) => {
    await openCaregivers(page);
    await expect(page.getByText('No invitations waiting.')).toBeVisible();
    await expect(page.getByText('No caregivers yet.')).toBeVisible();
    await expect(page.getByText('No activity yet.')).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
    });

    const form = page.getByRole('form', { name: 'Invite a caregiver' });
    // The domain's checks on the device, and the server's beside the field it is about.
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await expect(form.getByText('Caregiver email is required.')).toBeVisible();
    await form.getByRole('textbox', { name: 'Caregiver email' }).fill(patient.email);
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await expect(form.getByText('You cannot invite yourself.')).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Caregiver email' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );

    const invitee = uniqueEmail('new-caregiver');
    await form.getByRole('textbox', { name: 'Caregiver email' }).fill(invitee);
    await form.getByRole('combobox', { name: 'Family member' }).selectOption('Yes');
    await form.getByRole('textbox', { name: 'Relationship' }).fill('Daughter');
    await form.getByRole('textbox', { name: 'Phone number' }).fill('+1 212 555 0100');

    // A ready-made choice ticks its boxes, and each permission says what it lets the caregiver do.
    const medicines = form.getByRole('button', { name: /^Help with medicines/ });
    await medicines.click();
    await expect(medicines).toHaveAttribute('aria-pressed', 'true');
    await form.getByRole('button', { name: /^Prescription \d+ of \d+$/ }).click();
    await expect(form.getByRole('checkbox', { name: 'Edit Prescription' })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Delete Prescription' })).not.toBeChecked();
    await expect(form.getByText('Change a medicine and mark its doses as taken.')).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
      await expectTapTargets(form.getByRole('group', { name: 'Ready-made choices' }).getByRole('button'));
    });
    // Every box cleared, then two chosen by hand.
    await form.getByRole('button', { name: /^Full help/ }).click();
    for (const box of await form.getByRole('checkbox', { name: /^All .* permissions$/ }).all())
      await box.uncheck();
    await expect(medicines).toHaveAttribute('aria-pressed', 'false');
    await form.getByRole('button', { name: /^Appointment \d+ of \d+$/ }).click();
    await form.getByRole('checkbox', { name: 'Read Appointment' }).check();
    await form.getByRole('checkbox', { name: 'Add Appointment' }).check();
    await atEachViewport(page, () => expectTapTargets(form.getByRole('button')));
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText('Request sent successfully')).toBeVisible();
    // The form starts again empty.
    await expect(form.getByRole('textbox', { name: 'Caregiver email' })).toHaveValue('');
    await expect(form.getByRole('textbox', { name: 'Relationship' })).toHaveValue('');
    await expect(form.getByRole('checkbox', { name: 'Read Appointment' })).not.toBeChecked();

    expect(await latestMailTo(invitee)).toContain('/invite/register/');
    const sent = page.getByRole('list', { name: 'Sent invitations' }).getByRole('listitem');
    await expect(sent).toHaveCount(1);
    await expect(sent).toContainText(invitee);
    await expect(sent).toContainText('Read Appointment, Add Appointment');
    await expect(sent).toContainText('Sent');
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page, sent);
      await expectTapTargets(page.getByRole('main').getByRole('button', { name: /^Delete / }));
    });

    await page.getByRole('button', { name: `Delete the invitation to ${invitee}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete invitation' });
    await expect(dialog).toContainText('The link in their e-mail will stop working.');
    await atEachViewport(page, () => expectNoAxeViolations(page));
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No invitations waiting.')).toBeVisible();
    const listed = await request.get('/api/request/sent', { headers: bearer(patient.token) });
    expect((await listed.json()).data).toEqual([]);
  });

  test("a patient changes a caregiver's permissions, sees their activity, and removes them", async ({
    patientPage: page,
    patient,
    request,
  }) => {
    const caregiver = await linkCaregiver(request, patient.token, 'Alex Helper', [
      'ReadAppointment',
      'AddAppointment',
    ]);
    await openCaregivers(page);
    const row = page.getByRole('list', { name: 'Your caregivers' }).getByRole('listitem');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Alex Helper');
    await expect(row).toContainText(caregiver.email);
    await expect(row).toContainText('Son · Family member');
    await expect(row).toContainText('Read Appointment, Add Appointment');
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page, row);
      await expectTapTargets(row.getByRole('button'));
    });

    // Activity: the caregiver adds an appointment; the patient sees it, attributed, with its time.
    const [patientId] = (
      (
        await (
          await request.get('/api/request/associate-patients', { headers: bearer(caregiver.token) })
        ).json()
      ).assigned_patients as { patient_id: string }[]
    ).map((entry) => entry.patient_id);
    const added = await request.post('/api/appointments', {
      headers: bearer(caregiver.token),
      data: {
        id: crypto.randomUUID(),
        patient_id: patientId,
        appointment_title: 'Dentist',
        appointment_date: '2027-03-03T14:05:00Z',
      },
    });
    expect(added.status(), await added.text()).toBe(201);
    await page.reload();
    await expect(
      page
        .getByRole('list', { name: 'Recent activity' })
        .getByText(
          /^Alex Helper added an appointment, [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{2}, \d{4}, \d{1,2}:\d{2}( [AP]M)?$/,
        ),
    ).toBeVisible();

    await page.getByRole('button', { name: 'Edit permissions of Alex Helper' }).click();
    const sheet = page.getByRole('dialog', { name: 'Permissions of Alex Helper' });
    // (The dialog's own element has no size: its panel is what shows.)
    await expect(sheet.getByRole('button', { name: 'Save permissions' })).toBeVisible();
    await sheet.getByRole('button', { name: /^Appointment \d+ of \d+$/ }).click();
    await expect(sheet.getByRole('checkbox', { name: 'Add Appointment' })).toBeChecked();
    await sheet.getByRole('checkbox', { name: 'Add Appointment' }).uncheck();
    await sheet.getByRole('checkbox', { name: 'Edit Appointment' }).check();
    await sheet.getByRole('textbox', { name: 'Phone number' }).fill('12');
    await sheet.getByRole('button', { name: 'Save permissions' }).click();
    await expect(sheet.getByText('Enter a valid phone number (10 to 15 digits).')).toBeVisible();
    await sheet.getByRole('textbox', { name: 'Phone number' }).fill('2125550199');
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
      await expectTapTargets(sheet.getByRole('button', { name: /^(Cancel|Save permissions)$/ }));
    });
    await sheet.getByRole('button', { name: 'Save permissions' }).click();
    await expect(sheet).toHaveCount(0);
    await expect(row).toContainText('Read Appointment, Edit Appointment');
    await expect(row).toContainText('2125550199');
    expect(await grantedPermissions(request, caregiver.token)).toEqual([
      ['EditAppointment', 'ReadAppointment'],
    ]);

    await page.getByRole('button', { name: 'Remove Alex Helper' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove caregiver' });
    await expect(confirm).toContainText('They lose access to your records at once');
    await atEachViewport(page, () => expectNoAxeViolations(page));
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('No caregivers yet.')).toBeVisible();
    expect(await grantedPermissions(request, caregiver.token)).toEqual([]);
  });
});

test('offline: the lists still show after a reload, and the actions say they need a connection', async ({
  page,
  patient,
  context,
  request,
}) => {
  const caregiver = await linkCaregiver(request, patient.token, 'Cora Carer', ['ReadDoctor']);
  const invitee = uniqueEmail('pending');
  const sent = await request.post('/api/request/send-request', {
    headers: bearer(patient.token),
    data: { caregiver_email: invitee, permissions: ['ReadPharmacy'] },
  });
  expect(sent.ok()).toBe(true);
  await signIn(page, patient, '/care-giver');
  await waitForServiceWorker(page);
  await expect(page.getByRole('list', { name: 'Your caregivers' })).toContainText('Cora Carer');
  await expect(page.getByRole('list', { name: 'Sent invitations' })).toContainText(invitee);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Caregivers' })).toBeVisible();
  await expect(
    page.getByText(/^You are offline\. These lists are as this device last saw them/),
  ).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your caregivers' })).toContainText('Cora Carer');
  await expect(page.getByRole('list', { name: 'Sent invitations' })).toContainText(invitee);
  await expect(page.getByRole('list', { name: 'Sent invitations' })).toContainText('Read Pharmacy');

  await page.getByRole('button', { name: 'Remove Cora Carer' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText(OFFLINE_TEXT)).toBeVisible();
  const form = page.getByRole('form', { name: 'Invite a caregiver' });
  await form.getByRole('textbox', { name: 'Caregiver email' }).fill(uniqueEmail('later'));
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(form.getByText(OFFLINE_TEXT)).toBeVisible();
  await expectNoAxeViolations(page);

  await context.setOffline(false);
  // Nothing was sent while offline: the caregiver still has access.
  expect(await grantedPermissions(request, caregiver.token)).toEqual([['ReadDoctor']]);
});
