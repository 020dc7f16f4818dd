import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  linkCaregiverThroughApi,
  menuEntry,
  signIn,
  VIEWPORTS,
  waitForServiceWorker,
  bearer,
} from './support';

// /permission-request (patient): 'Caregivers Permission List'. A linked caregiver's
// requests for more access show as pending with Accept and Decline; the answer reads Approved or Rejected
// and reaches the server; a table on a laptop, cards on a phone; offline the list stays and answering
// says it needs a connection.

const OFFLINE_TEXT = 'You are offline. This needs a connection; please try again when you are back online.';

/** A caregiver linked to the patient of `patientToken` (invited, then accepted with their own token). */
async function linkCaregiver(request: APIRequestContext, patientToken: string, name: string) {
  const caregiver = await linkCaregiverThroughApi(request, patientToken, name, ['ReadAppointment']);
  const patients = await request.get('/api/request/associate-patients', { headers: bearer(caregiver.token) });
  const [patient] = (await patients.json()).assigned_patients as {
    patient_id: string;
    permission_id: string;
  }[];
  return { ...caregiver, patientId: patient?.patient_id ?? '', permissionId: patient?.permission_id };
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

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test("a caregiver's requests show as pending; Accept grants them, Decline refuses them", async ({
    patientPage: page,
    patient,
    request,
  }) => {
    await (await menuEntry(page, 'Caregiver Permissions Request')).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Caregivers Permission List' })).toBeVisible();
    await expect(page.getByText('No permission requests.')).toBeVisible();
    await atEachViewport(page, () => expectNoAxeViolations(page));

    const caregiver = await linkCaregiver(request, patient.token, 'Alex Asker');
    await askFor(request, caregiver, ['AddAppointment']);
    await page.reload();
    // The menu says a request waits: on More on a phone, on the entry itself in the sidebar and the sheet.
    const tabs = page.getByTestId('tab-bar');
    await expect(tabs.getByTestId('more-waiting')).toHaveText('1');
    const more = tabs.getByRole('button', { name: 'More', exact: true });
    await expect(more).toHaveAccessibleDescription('1 permission request waiting');
    await more.click();
    await expect(
      page.getByTestId('more-sheet').getByRole('link', { name: 'Caregiver Permissions Request' }),
    ).toHaveAccessibleDescription('1 permission request waiting');
    await page.keyboard.press('Escape');
    await page.setViewportSize(VIEWPORTS[1] ?? { width: 1280, height: 800 });
    await expect(
      page.getByTestId('sidebar').getByRole('link', { name: 'Caregiver Permissions Request' }),
    ).toHaveAccessibleDescription('1 permission request waiting');
    await page.setViewportSize(VIEWPORTS[0] ?? { width: 390, height: 844 });
    // Cards on a phone, a table from 768 px.
    await atEachViewport(page, async (viewport) => {
      const first = rowsOf(page).first();
      await expect(rowsOf(page)).toHaveCount(1);
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
    });
    const rows = rowsOf(page);
    const first = rows.first();

    await first.getByRole('button', { name: 'Accept the request of Alex Asker' }).click();
    await expect(first).toContainText('Approved');
    await expect(page.getByTestId('tab-bar').getByTestId('more-waiting')).toHaveCount(0);
    await expect(first.getByRole('button')).toHaveCount(0);
    expect(await grantedPermissions(request, caregiver.token)).toEqual(['AddAppointment', 'ReadAppointment']);

    await askFor(request, caregiver, ['DeleteAppointment']);
    await page.reload();
    await expect(rows).toHaveCount(2);
    // Waiting requests come first.
    await expect(rows.first()).toContainText('Delete Appointment');
    await rows.first().getByRole('button', { name: 'Decline the request of Alex Asker' }).click();
    await expect(rows.filter({ hasText: 'Delete Appointment' })).toContainText('Rejected');
    await expect(rows.filter({ hasText: 'Add Appointment' })).toContainText('Approved');
    await expect(page.getByRole('button', { name: /^(Accept|Decline) / })).toHaveCount(0);
    expect(await grantedPermissions(request, caregiver.token)).toEqual(['AddAppointment', 'ReadAppointment']);
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
    });
  });
});

test('offline: the list still shows after a reload, and Accept says it needs a connection', async ({
  page,
  patient,
  context,
  request,
}) => {
  const caregiver = await linkCaregiver(request, patient.token, 'Ben Waiting');
  await askFor(request, caregiver, ['ReadDoctor']);
  await signIn(page, patient, '/permission-request');
  await waitForServiceWorker(page);
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
