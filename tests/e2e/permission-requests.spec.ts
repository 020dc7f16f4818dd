import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  apiToken,
  createVerifiedUser,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  menuEntry,
  signInThroughUi,
  storedToken,
  VIEWPORTS,
  waitForServiceWorker,
  bearer,
  acceptBetaPolicyThroughApi,
} from './support';

// /permission-request (patient): 'Caregivers Permission List' of SPEC section 2. A linked caregiver's
// requests for more access show as pending with Accept and Decline; the answer reads Approved or Rejected
// and reaches the server; a table on a laptop, cards on a phone; offline the list stays and answering
// says it needs a connection.

const OFFLINE_TEXT = 'You are offline. This needs a connection; please try again when you are back online.';

/** A caregiver linked to the patient of `patientToken` (invited, then accepted with their own token). */
async function linkCaregiver(request: APIRequestContext, patientToken: string, name: string) {
  const caregiver = await createVerifiedUser(request, 'Caregiver', name);
  const token = await apiToken(request, caregiver.email);
  await acceptBetaPolicyThroughApi(request, token);
  const sent = await request.post('/api/request/send-request', {
    headers: bearer(patientToken),
    data: { caregiver_email: caregiver.email, permissions: ['ReadAppointment'] },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const received = await request.get('/api/request/received', { headers: bearer(token) });
  const [invitation] = (await received.json()).data as { request_id: string }[];
  const approved = await request.post('/api/request/approve', {
    headers: bearer(token),
    data: { request_id: invitation?.request_id },
  });
  expect(approved.ok(), await approved.text()).toBe(true);
  const patients = await request.get('/api/request/associate-patients', { headers: bearer(token) });
  const [patient] = (await patients.json()).assigned_patients as {
    patient_id: string;
    permission_id: string;
  }[];
  return { ...caregiver, token, patientId: patient?.patient_id ?? '', permissionId: patient?.permission_id };
}

/** The caregiver asks for more, as their page does (POST /api/request/permission-requests). */
async function askFor(
  request: APIRequestContext,
  caregiver: { token: string; patientId: string; permissionId?: string | undefined },
  permissions: string[],
) {
  const asked = await request.post('/api/request/permission-requests', {
    headers: bearer(caregiver.token),
    data: {
      patient_id: caregiver.patientId,
      requested_permissions: permissions,
      permission_id: caregiver.permissionId,
    },
  });
  expect(asked.ok(), await asked.text()).toBe(true);
}

async function grantedPermissions(request: APIRequestContext, token: string): Promise<string[]> {
  const response = await request.get('/api/request/associate-patients', { headers: bearer(token) });
  const [patient] = (await response.json()).assigned_patients as { permissions: string[] }[];
  return [...(patient?.permissions ?? [])].sort();
}

/** The request rows as shown at this width: table rows from 768 px, cards below. */
function rowsOf(page: Page): Locator {
  const wide = (page.viewportSize()?.width ?? 1280) >= 768;
  return wide
    ? page.getByRole('table', { name: 'Permission requests from your caregivers' }).locator('tbody tr')
    : page.getByRole('list', { name: 'Permission requests from your caregivers' }).getByRole('listitem');
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test("a caregiver's requests show as pending; Accept grants them, Decline refuses them", async ({
      page,
      request,
    }) => {
      const patient = await createVerifiedUser(request, 'Patient', 'Rhea Requested');
      await signInThroughUi(page, patient.email);
      await (await menuEntry(page, 'Caregiver Permissions Request')).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Caregivers Permission List' })).toBeVisible();
      await expect(page.getByText('No permission requests.')).toBeVisible();
      await expectNoAxeViolations(page);

      const caregiver = await linkCaregiver(request, (await storedToken(page)) ?? '', 'Alex Asker');
      await askFor(request, caregiver, ['AddAppointment']);
      await page.reload();
      const rows = rowsOf(page);
      await expect(rows).toHaveCount(1);
      const first = rows.first();
      await expect(first).toContainText('Alex Asker');
      await expect(first).toContainText('Add Appointment');
      await expect(first).toContainText('Pending');
      if (viewport.width >= 768) {
        await expect(page.getByRole('columnheader')).toHaveText([
          'Requested',
          'Caregiver',
          'Permissions',
          'Status',
        ]);
        await expect(
          page.getByRole('list', { name: 'Permission requests from your caregivers' }),
        ).toBeHidden();
      } else {
        await expect(page.getByRole('table')).toBeHidden();
      }
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page, first);
      await expectTapTargets(first.getByRole('button'));

      await first.getByRole('button', { name: 'Accept the request of Alex Asker' }).click();
      await expect(first).toContainText('Approved');
      await expect(first.getByRole('button')).toHaveCount(0);
      expect(await grantedPermissions(request, caregiver.token)).toEqual([
        'AddAppointment',
        'ReadAppointment',
      ]);

      await askFor(request, caregiver, ['DeleteAppointment']);
      await page.reload();
      await expect(rows).toHaveCount(2);
      // Waiting requests come first.
      await expect(rows.first()).toContainText('Delete Appointment');
      await rows.first().getByRole('button', { name: 'Decline the request of Alex Asker' }).click();
      await expect(rows.filter({ hasText: 'Delete Appointment' })).toContainText('Rejected');
      await expect(rows.filter({ hasText: 'Add Appointment' })).toContainText('Approved');
      await expect(page.getByRole('button', { name: /^(Accept|Decline) / })).toHaveCount(0);
      expect(await grantedPermissions(request, caregiver.token)).toEqual([
        'AddAppointment',
        'ReadAppointment',
      ]);
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
    });
  });
}

test('offline: the list still shows after a reload, and Accept says it needs a connection', async ({
  page,
  context,
  request,
}) => {
  const patient = await createVerifiedUser(request, 'Patient', 'Nia Nosignal');
  await signInThroughUi(page, patient.email);
  await waitForServiceWorker(page);
  const caregiver = await linkCaregiver(request, (await storedToken(page)) ?? '', 'Ben Waiting');
  await askFor(request, caregiver, ['ReadDoctor']);
  await page.goto('/permission-request');
  await expect(rowsOf(page)).toHaveCount(1);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText(/^You are offline\. This list is as this device last saw it/)).toBeVisible();
  const row = rowsOf(page).first();
  await expect(row).toContainText('Ben Waiting');
  await expect(row).toContainText('Read Doctor');
  await row.getByRole('button', { name: 'Accept the request of Ben Waiting' }).click();
  await expect(page.getByText(OFFLINE_TEXT)).toBeVisible();
  await expect(row).toContainText('Pending');
  await expectNoAxeViolations(page);
  await context.setOffline(false);
  expect(await grantedPermissions(request, caregiver.token)).toEqual(['ReadAppointment']);
});
