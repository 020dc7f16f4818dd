import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  PASSWORD,
  VIEWPORTS,
  acceptBetaPolicyIfAsked,
  acceptInvitations,
  addAppointmentThroughUi,
  atEachViewport,
  createAccount,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  latestMailTo,
  menuEntry,
  signIn,
  signedInUserId,
  syncNow,
  uniqueEmail,
  waitForServiceWorker,
  bearer,
} from './support';

// Caregivers end to end, every step as the two people do it in their own
// browsers: the patient invites by e-mail; the invited person registers through the mailed link and sees
// only the menu entries the patient granted; they ask for AddAppointment; the patient accepts; the
// caregiver adds an appointment; the patient sees it, attributed; the patient withdraws ReadAppointment;
// after the caregiver's next sync their device holds none of that patient's appointments. Each journey runs
// once, on phones; what the menus offer and the screens are checked at the phone's and the laptop's size.

const CAREGIVER_NAME = 'Sam Carer';

async function newDevice(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, baseURL: process.env.E2E_BASE_URL });
  return { context, page: await context.newPage() };
}

// On a phone the most used screens are tabs of the tab bar, under short names; the rest are in More.
const TAB_NAMES: Record<string, string> = {
  Appointments: 'Appointments',
  Prescriptions: 'Medicines',
  'Lab Reports': 'Reports',
};

/** Where a person finds a menu entry at this size: the tab bar or the More sheet on a phone, else the sidebar. */
async function menuLink(page: Page, name: string) {
  const tab = TAB_NAMES[name];
  if ((page.viewportSize()?.width ?? 1280) < 768 && tab)
    return page.getByTestId('tab-bar').getByRole('link', { name: tab, exact: true });
  return menuEntry(page, name);
}

async function openMenu(page: Page, name: string) {
  await (await menuLink(page, name)).click();
}

/** Whether the menu offers `name`; on a phone the More sheet it may have opened is closed again. */
async function expectOffered(page: Page, name: string, offered: boolean) {
  await expect(await menuLink(page, name)).toHaveCount(offered ? 1 : 0);
  if (await page.getByTestId('more-sheet').isVisible()) {
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('more-sheet')).toBeHidden();
  }
}

/** The appointment titles in this device's replica (what a thief of the phone could read), for a patient. */
async function replicaAppointmentTitles(page: Page, patientId: string): Promise<string[]> {
  const userId = await signedInUserId(page);
  if (!userId) throw new Error('nobody is signed in on this page');
  return page.evaluate(
    async ({ name, patient }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      try {
        if (!db.objectStoreNames.contains('appointments')) return [];
        const rows = await new Promise<{ patient_id: string; appointment_title: string }[]>(
          (resolve, reject) => {
            const request = db.transaction('appointments').objectStore('appointments').getAll();
            request.onsuccess = () => resolve(request.result as never);
            request.onerror = () => reject(request.error);
          },
        );
        return rows.filter((row) => row.patient_id === patient).map((row) => row.appointment_title);
      } finally {
        db.close();
      }
    },
    { name: `kincare-${userId}`, patient: patientId },
  );
}

/** A patient (through the API) with one appointment, who invites `caregiverEmail` to read appointments. */
async function patientWhoInvites(
  request: APIRequestContext,
  name: string,
  title: string,
  caregiverEmail: string,
) {
  const patient = await createAccount(request, 'Patient', name);
  const { token } = patient;
  const booked = await request.post('/api/appointments', {
    headers: bearer(token),
    data: {
      id: crypto.randomUUID(),
      patient_id: patient.patientId,
      appointment_title: title,
      appointment_date: new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString(),
    },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const sent = await request.post('/api/request/send-request', {
    headers: bearer(token),
    data: { caregiver_email: caregiverEmail, permissions: ['ReadAppointment'] },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  return { name, title, email: patient.email, patientId: patient.patientId };
}

test.describe('on phones', () => {
  const viewport = VIEWPORTS[0];
  test.use({ viewport, patientName: 'Ruth Patient' });

  test('invite by e-mail, register through the link, ask for more, add, see it attributed, lose it on withdrawal', async ({
    patientPage: page,
    browser,
  }) => {
    test.setTimeout(180_000);
    // The patient, signed in on their own phone.

    // 1. The patient invites by e-mail, granting ReadAppointment only.
    await openMenu(page, 'Caregivers');
    await expect(page.getByRole('heading', { name: 'Caregivers', level: 1 })).toBeVisible();
    const caregiverEmail = uniqueEmail('journey');
    const form = page.getByRole('form', { name: 'Invite a caregiver' });
    await form.getByRole('textbox', { name: 'Caregiver email' }).fill(caregiverEmail);
    await form.getByRole('button', { name: /^Appointment \d+ of \d+$/ }).click();
    await form.getByRole('checkbox', { name: 'Read Appointment' }).check();
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText('Request sent successfully')).toBeVisible();

    // 2. The invited person opens the mailed link on their own device and registers.
    const mail = await latestMailTo(caregiverEmail);
    const link = /\/invite\/register\/[A-Za-z0-9_-]{43}/.exec(mail)?.[0];
    expect(link, 'the invitation mail holds the registration link').toBeTruthy();
    const carer = await newDevice(browser, viewport);
    try {
      const c = carer.page;
      await c.goto(link ?? '');
      await expect(c.getByTestId('invite-from')).toContainText('Ruth Patient invited you');
      const register = c.getByRole('form', { name: 'Create your caregiver account' });
      await register.getByLabel('Full name').fill(CAREGIVER_NAME);
      await register.getByLabel('Password').fill(PASSWORD);
      await register.getByLabel('Zip code').fill('10001');
      await register.getByRole('button', { name: 'Create account' }).click();
      await c.waitForURL(/\/onboarding\//);
      await c.getByRole('button', { name: 'Continue' }).click();
      await acceptBetaPolicyIfAsked(c);
      await expect(c).toHaveURL(/\/caregiver\/dashboard$/);

      // 3. Only what was granted is offered: Appointments, not Doctors or Lab Reports.
      await atEachViewport(c, async () => {
        await expectOffered(c, 'Appointments', true);
        for (const refused of ['Doctors', 'Lab Reports', 'Prescriptions'])
          await expectOffered(c, refused, false);
      });
      await openMenu(c, 'Appointments');
      await expect(c.getByRole('button', { name: 'New appointment' })).toHaveCount(0);

      // 4. They ask for AddAppointment.
      await openMenu(c, 'Permission Requests');
      await c.getByRole('button', { name: /^Appointment/ }).click();
      await c.getByRole('checkbox', { name: 'Add Appointment' }).check();
      await c.getByRole('button', { name: 'Save Changes' }).click();
      await expect(c.getByText('Request sent successfully')).toBeVisible();

      // 5. The patient accepts it on 'Caregiver Permissions Request'.
      await openMenu(page, 'Caregiver Permissions Request');
      await expect(page.getByRole('heading', { name: 'Caregivers Permission List', level: 1 })).toBeVisible();
      await page.getByRole('button', { name: `Accept the request of ${CAREGIVER_NAME}` }).click();
      await expect(page.getByText('Approved', { exact: true }).filter({ visible: true })).toBeVisible();
      await atEachViewport(page, async () => {
        await expectNoAxeViolations(page);
        await expectNoHorizontalOverflow(page);
      });

      // 6. The caregiver's next sync brings the permission: they add an appointment.
      await syncNow(c);
      await openMenu(c, 'Appointments');
      await addAppointmentThroughUi(c, 'Eye clinic, booked by Sam');
      await syncNow(c);

      // 7. The patient sees it, as added by the caregiver.
      await openMenu(page, 'Appointments');
      await syncNow(page);
      const item = page.getByRole('listitem').filter({ hasText: 'Eye clinic, booked by Sam' });
      await expect(item).toBeVisible();
      await expect(item.getByTestId('added-by')).toHaveText(`Added by ${CAREGIVER_NAME}`);
      // And their caregiver page says so.
      await openMenu(page, 'Caregivers');
      await expect(page.getByText(`${CAREGIVER_NAME} added an appointment`)).toBeVisible();

      // 8. The patient withdraws ReadAppointment (keeping AddAppointment).
      const selectedPatient = await c.evaluate(() => localStorage.getItem('selectedPatientId'));
      expect(selectedPatient).toBeTruthy();
      expect(await replicaAppointmentTitles(c, selectedPatient ?? '')).toEqual(['Eye clinic, booked by Sam']);
      await page.getByRole('button', { name: `Edit permissions of ${CAREGIVER_NAME}` }).click();
      const sheet = page.getByRole('dialog');
      await sheet.getByRole('button', { name: /^Appointment \d+ of \d+$/ }).click();
      await sheet.getByRole('checkbox', { name: 'Read Appointment' }).uncheck();
      await sheet.getByRole('button', { name: 'Save permissions' }).click();
      await expect(sheet).toBeHidden();

      // 9. After the caregiver's next sync, their device holds none of the patient's appointments, and
      // the screen is no longer offered.
      await syncNow(c);
      await expect.poll(() => replicaAppointmentTitles(c, selectedPatient ?? '')).toEqual([]);
      await atEachViewport(c, () => expectOffered(c, 'Appointments', false));
    } finally {
      await carer.context.close();
    }
  });

  test('a caregiver of three patients reads all three with no signal, switching between them', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const carer = await createAccount(request, 'Caregiver', 'Cass Three');
    const patients = [
      await patientWhoInvites(request, 'Amy First', 'Amy: dermatology', carer.email),
      await patientWhoInvites(request, 'Ben Second', 'Ben: physiotherapy', carer.email),
      await patientWhoInvites(request, 'Cleo Third', 'Cleo: cardiology', carer.email),
    ];
    await acceptInvitations(request, carer.token);

    await signIn(page, carer);
    await waitForServiceWorker(page);
    await syncNow(page);
    const picker = page.getByLabel('Select Patient').filter({ visible: true });
    await expect(picker.locator('option')).toHaveCount(4); // the three, and 'Choose a patient'

    // No signal from here on, and the app is opened afresh (the service worker serves it).
    await page.context().setOffline(true);
    await page.reload();
    for (const patient of patients) {
      await picker.selectOption({ label: `${patient.name} (${patient.email})` });
      await openMenu(page, 'Appointments');
      await expect(page.getByText(patient.title)).toBeVisible();
      for (const other of patients.filter((candidate) => candidate !== patient))
        await expect(page.getByText(other.title)).toHaveCount(0);
    }
    await atEachViewport(page, async () => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalOverflow(page);
    });
    await page.context().setOffline(false);
  });
});
