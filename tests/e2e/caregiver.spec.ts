import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  acceptInvitations,
  atEachViewport,
  createAccount,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  invite,
  menuEntry,
  signIn,
  syncNow,
  VIEWPORTS,
  bearer,
  WITHOUT_SERVICE_WORKER,
} from './support';

// Online screens only: without the service worker (support.ts: WITHOUT_SERVICE_WORKER).
test.use(WITHOUT_SERVICE_WORKER);

// The caregiver's side: /caregiver/patients (accept a received request, the patient becomes selectable),
// the permission-gated submenu, 'Request Additional Permissions' with and without a selected patient, and
// what the screens do when the patient withdraws a permission or removes the link. Each journey runs
// once; the menu and the screens are checked at the phone's and the laptop's size.

const SELECT_WARNING =
  "Start by selecting a patient from the header. Once a patient is selected, use the permissions section below to choose the access you'd like to request.";

/** A neighbour's invitation, as the patient's Caregivers screen sends it. */
const NEIGHBOUR = { is_family: false, relationship: 'Neighbour' };

// On a phone the most used record screens are tabs of the tab bar (under short names), the rest are in More.
const TAB_NAMES: Record<string, string> = {
  Appointments: 'Appointments',
  Prescriptions: 'Medicines',
  'Lab Reports': 'Reports',
};

/** Whether the menu offers a caregiver record screen, where a person would look for it at this size. */
async function expectMenuOffers(page: Page, name: string, offered: boolean) {
  const tab = TAB_NAMES[name];
  const phone = (page.viewportSize()?.width ?? 1280) < 768;
  if (phone && tab) {
    await expect(page.getByTestId('tab-bar').getByRole('link', { name: tab, exact: true })).toHaveCount(
      offered ? 1 : 0,
    );
    return;
  }
  await expect(await menuEntry(page, name)).toHaveCount(offered ? 1 : 0);
  if (phone) {
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('more-sheet')).toBeHidden();
  }
}

/** The visible 'Select Patient' (the header shows one at a time: on its own line on a phone). */
function patientSelect(page: Page) {
  return page.getByRole('combobox', { name: 'Select Patient' }).locator('visible=true');
}

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS[0], patientName: 'Paul Patient' });

  test('an existing caregiver accepts a request on Patients; the patient becomes selectable and the menu shows only what was granted', async ({
    page,
    patient,
    request,
  }) => {
    const caregiver = await createAccount(request, 'Caregiver', 'Cora Carer');
    await invite(request, patient.token, caregiver.email, ['ReadAppointment', 'AddAppointment'], NEIGHBOUR);
    await signIn(page, caregiver);
    await expect(page.getByTestId('care-summary-requests')).toHaveText(
      '1 request is waiting for your answer.',
    );
    // Nothing granted yet: the submenu's place holds the disabled entry, at each size where it is.
    await atEachViewport(page, async (viewport) => {
      await expectMenuOffers(page, 'Appointments', false);
      if (viewport.width < 768) {
        await page.getByTestId('tab-bar').getByRole('button', { name: 'More' }).click();
        await expect(page.getByTestId('more-sheet').getByText('No caregiver permissions')).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('more-sheet')).toBeHidden();
      } else {
        await expect(
          page.getByRole('navigation', { name: 'Main' }).getByText('No caregiver permissions'),
        ).toBeVisible();
      }
    });
    await expect(patientSelect(page).getByRole('option', { name: /Paul Patient/ })).toHaveCount(0);

    await (await menuEntry(page, 'Patients')).click();
    await expect(page).toHaveURL(/\/caregiver\/patients$/);
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Paul Patient' }) });
    await expect(card).toContainText(patient.email);
    await expect(card).toContainText('Neighbour');
    await expect(card).toContainText('Appointment: Read Appointment, Add Appointment');
    await expect(page.getByText('No patients yet.')).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
      await expectTapTargets(page.locator('#main').getByRole('button'));
    });

    await card.getByRole('button', { name: 'Accept' }).click();
    await expect(page.getByText('No requests waiting.')).toBeVisible();
    const mine = page.getByTestId('my-patients');
    await expect(mine.getByRole('heading', { name: 'Paul Patient' })).toBeVisible();
    await expect(
      patientSelect(page).getByRole('option', { name: `Paul Patient (${patient.email})` }),
    ).toHaveCount(1);
    // The only patient is selected, and the submenu now offers exactly what was granted.
    await expect(mine.getByText('Selected', { exact: true }).first()).toBeVisible();
    await atEachViewport(page, async () => {
      await expectMenuOffers(page, 'Appointments', true);
      for (const absent of ['Doctors', 'Pharmacies', 'Lab Reports', 'Prescriptions', 'Medical History']) {
        await expectMenuOffers(page, absent, false);
      }
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
    });
  });

  test('Request Additional Permissions: a warning and "Please select patient." with no patient; with one, granted ones locked and only new ones sent', async ({
    page,
    patient,
    request,
  }) => {
    const caregiver = await createAccount(request, 'Caregiver', 'Ria Requester');
    await signIn(page, caregiver);
    await (await menuEntry(page, 'Permission Requests')).click();
    await expect(page.getByRole('heading', { name: 'Request Additional Permissions' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
    await expect(page.getByText(SELECT_WARNING)).toHaveCount(0);

    await page.getByRole('button', { name: /^Appointment/ }).click();
    await page.getByRole('checkbox', { name: 'Add Appointment' }).check();
    await expect(page.getByText(SELECT_WARNING)).toBeVisible();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Please select patient.' })).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
    });

    // Now a patient links them with ReadAppointment; a sync brings the link and selects the patient.
    await invite(request, patient.token, caregiver.email, ['ReadAppointment'], NEIGHBOUR);
    await acceptInvitations(request, caregiver.token);
    await syncNow(page);
    await expect(patientSelect(page)).toHaveValue(/.+/);
    await expect(page.getByText(SELECT_WARNING)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);

    const group = page.getByRole('button', { name: /^Appointment/ });
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    const read = page.getByRole('checkbox', { name: 'Read Appointment (granted)' });
    await expect(read).toBeChecked();
    await expect(read).toBeDisabled();
    const add = page.getByRole('checkbox', { name: 'Add Appointment' });
    // What it would let them do, in a sentence on the page, and the catalogue's own words.
    await expect(page.getByText('Book a new appointment for the patient.')).toBeVisible();
    await expect(add).toHaveAccessibleDescription(
      'Book a new appointment for the patient. Book a new appointment',
    );
    // With a mouse the description is a tooltip: shown on hover (and on focus), hidden otherwise.
    const tooltip = page.getByRole('tooltip', { name: 'Book a new appointment' });
    await expect(tooltip).toBeHidden();
    await add.hover();
    await expect(tooltip).toBeVisible();
    await page.mouse.move(0, 0);
    const all = page.getByRole('checkbox', { name: 'All Appointment permissions' });
    await expect(all).toHaveAttribute('aria-checked', 'mixed');
    expect(await all.evaluate((box: HTMLInputElement) => box.indeterminate)).toBe(true);
    await atEachViewport(page, () => expectTapTargets(page.locator('form label').locator('visible=true')));

    await add.check();
    await page.getByRole('checkbox', { name: 'Edit Appointment' }).check();
    await page.getByRole('checkbox', { name: 'Edit Appointment' }).uncheck();
    const save = page.getByRole('button', { name: 'Save Changes' });
    await expect(save).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
    });
    const sent = page.waitForRequest(
      (call) => call.method() === 'POST' && call.url().endsWith('/api/request/permission-requests'),
    );
    await save.click();
    await expect(page.getByText('Request sent successfully')).toBeVisible();
    // Only the new permission is asked for, for the selected patient through their link.
    const body = (await sent).postDataJSON() as Record<string, unknown>;
    expect(body.requested_permissions).toEqual(['AddAppointment']);
    expect(body.patient_id).toEqual(expect.any(String));
    expect(body.permission_id).toEqual(expect.any(String));
    await expect(save).toHaveCount(0);
    const mine = page.getByTestId('my-permission-requests');
    await expect(mine).toContainText('Appointment: Add Appointment');
    await expect(mine).toContainText('Pending');

    // The patient was asked for exactly the new permission.
    const listed = await request.get('/api/request/permission-requests', {
      headers: bearer(patient.token),
    });
    const requests = (await listed.json()).data as { permissions: string[]; status: string }[];
    expect(requests.map((entry) => entry.permissions)).toEqual([['AddAppointment']]);
  });

  test('revocation: a withdrawn permission leaves its screen and menu entry at once; a removed link leaves the picker and the screens', async ({
    page,
    request,
  }) => {
    const patient = await createAccount(request, 'Patient', 'Rex Revoker');
    const caregiver = await createAccount(request, 'Caregiver', 'Vic Visitor');
    await invite(request, patient.token, caregiver.email, ['ReadAppointment', 'ReadDoctor'], NEIGHBOUR);
    await acceptInvitations(request, caregiver.token);
    await signIn(page, caregiver);
    await expect(patientSelect(page)).toHaveValue(/.+/);
    await page.goto('/caregiver/appointments');
    await expect(page).toHaveURL(/\/caregiver\/appointments$/);

    const approved = await request.get('/api/request/approved', { headers: bearer(patient.token) });
    const [link] = (await approved.json()).data as { request_id: string; permission_id: string }[];
    const withdrawn = await request.put('/api/request/update-permission', {
      headers: bearer(patient.token),
      data: { permissions: ['ReadDoctor'], permission_id: link?.permission_id },
    });
    expect(withdrawn.ok(), await withdrawn.text()).toBe(true);
    await syncNow(page);
    await expect(page).toHaveURL(/\/unauthorized$/);
    await page.goto('/caregiver/dashboard');
    await atEachViewport(page, async () => {
      await expectMenuOffers(page, 'Doctors', true);
      await expectMenuOffers(page, 'Appointments', false);
    });

    await (await menuEntry(page, 'Patients')).click();
    await expect(page.getByTestId('my-patients').getByRole('heading', { name: 'Rex Revoker' })).toBeVisible();
    const removed = await request.post('/api/request/delete', {
      headers: bearer(patient.token),
      data: { request_id: link?.request_id, status: 'approved', request_type: 'approved' },
    });
    expect(removed.ok(), await removed.text()).toBe(true);
    await syncNow(page);
    await expect(page.getByText('No patients yet.')).toBeVisible();
    await expect(patientSelect(page).getByRole('option', { name: /Rex Revoker/ })).toHaveCount(0);
    await expect(patientSelect(page)).toHaveValue('');
    expect(await page.evaluate(() => localStorage.getItem('selectedPatientId'))).toBeNull();
    await page.goto('/caregiver/dashboard');
    await expect(page.getByTestId('care-summary')).toContainText('Accept a patient’s request');
    await atEachViewport(page, async () => {
      await expectMenuOffers(page, 'Doctors', false);
      await expectNoAxeViolations(page);
    });
  });
});

test('a caregiver ends a link with Stop caring; the selected patient is cleared', async ({
  page,
  request,
}) => {
  const caregiver = await createAccount(request, 'Caregiver', 'Sam Stopper');
  const first = await createAccount(request, 'Patient', 'Ann First');
  const second = await createAccount(request, 'Patient', 'Bob Second');
  await invite(request, first.token, caregiver.email, ['ReadAppointment'], NEIGHBOUR);
  await invite(request, second.token, caregiver.email, ['ReadDoctor'], NEIGHBOUR);
  await acceptInvitations(request, caregiver.token);
  await signIn(page, caregiver);
  await (await menuEntry(page, 'Patients')).click();
  // Two patients: none is chosen for the caregiver.
  await expect(patientSelect(page)).toHaveValue('');
  const card = (name: string) =>
    page
      .getByTestId('my-patients')
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name }) });
  await card('Bob Second').getByRole('button', { name: 'Select' }).click();
  await expect(card('Bob Second').getByText('Selected', { exact: true }).first()).toBeVisible();
  await expectMenuOffers(page, 'Doctors', true);
  await card('Bob Second').getByRole('button', { name: 'Stop caring' }).click();
  await expectNoAxeViolations(page);
  await page.getByRole('dialog').getByRole('button', { name: 'Stop caring' }).click();
  await expect(card('Bob Second')).toHaveCount(0);
  await expect(card('Ann First')).toBeVisible();
  // The remaining patient is the only one now, and is selected in their place.
  await expect(patientSelect(page).getByRole('option', { name: /Bob Second/ })).toHaveCount(0);
  await expect(card('Ann First').getByText('Selected', { exact: true }).first()).toBeVisible();
  const links = await request.get('/api/request/associate-patients', { headers: bearer(caregiver.token) });
  expect(((await links.json()).assigned_patients as { name: string }[]).map((entry) => entry.name)).toEqual([
    'Ann First',
  ]);
});

test.describe('on a touch phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('each permission says under its label what it lets the caregiver do (there is no hover to show a tooltip)', async ({
    page,
    request,
  }) => {
    await signIn(
      page,
      await createAccount(request, 'Caregiver', 'Tia Touch'),
      '/caregiver/permission-request',
    );
    await page.getByRole('button', { name: /^Lab Report/ }).tap();
    for (const [label, sentence, description] of [
      ['Read Lab Report', 'See lab reports, their files and the latest results.', 'View lab reports'],
      ['Add Lab Report', 'Upload a lab report and have its results read.', 'Upload a lab report'],
      ['Edit Lab Report', 'Correct a lab report and its results.', 'Change a lab report'],
      ['Delete Lab Report', 'Remove a lab report.', 'Remove a lab report'],
    ] as const) {
      await expect(page.getByText(sentence, { exact: true })).toBeVisible();
      // The catalogue's own words stay the box's description, for a screen reader.
      await expect(page.getByRole('checkbox', { name: label, exact: true })).toHaveAccessibleDescription(
        `${sentence} ${description}`,
      );
    }
    await expectNoHorizontalOverflow(page);
    await expectTapTargets(page.locator('form label').locator('visible=true'));
  });
});
