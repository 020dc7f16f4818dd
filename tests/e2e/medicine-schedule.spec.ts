import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  bearer,
  createAccount,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  linkCaregiverThroughApi,
  signIn,
  syncNow,
  waitForServiceWorker,
  type Account,
} from './support';

// The daily medicine schedule on the device, offline and then synced: a
// caregiver's phone goes offline, opens the selected patient's schedule on Home, marks the 08:00 dose
// taken, reloads with no signal and still sees it taken; back online it syncs, and the patient's own
// device shows the dose taken by that caregiver. A caregiver who may only read sees no Taken buttons.
//
// Dose times are wall-clock times in the prescription's zone: the browsers run in that zone too, and the
// prescription started yesterday, so today's 08:00 dose is there whatever the hour (upcoming, due or
// missed: any of them may be marked).

const ZONE = 'America/New_York';
const PHONE = { width: 390, height: 844 };
const MEDICINE = 'Metformin 500 mg';
/** The smallest Taken / Not taken button (arm's length, on a phone). */
const MARK_BUTTON_PX = 56;

/** A day in ZONE, `offset` days from today, as 'YYYY-MM-DD'. */
function dayInZone(offset = 0): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
  const [year, month, day] = parts.split('-').map(Number);
  const date = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + offset));
  return date.toISOString().slice(0, 10);
}

type Patient = Account;

/** A patient with a prescription taken at 08:00 and 20:00 since yesterday, made through the API. */
async function patientWithPrescription(request: APIRequestContext, name: string): Promise<Patient> {
  const patient = await createAccount(request, 'Patient', name);
  const { token, patientId } = patient;
  const created = await request.post('/api/prescriptions', {
    headers: bearer(token),
    data: {
      patient_id: patientId,
      medicine_name: 'Metformin',
      strength: '500 mg',
      form: 'tablet',
      directions: 'Take 1 tablet by mouth twice daily',
      start_date: dayInZone(-1),
      times: ['08:00', '20:00'],
      time_zone: ZONE,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return patient;
}

/** A caregiver linked to the patient with these permissions (invited, and the invitation accepted). */
const linkedCaregiver = (request: APIRequestContext, patient: Patient, name: string, permissions: string[]) =>
  linkCaregiverThroughApi(request, patient.token, name, permissions, 'Son');

/** The server's copy of today's 08:00 dose, asked with the patient's token. */
async function serverDose(request: APIRequestContext, patient: Patient) {
  const response = await request.get(`/api/prescriptions/schedule?date=${dayInZone()}`, {
    headers: bearer(patient.token),
  });
  expect(response.ok(), await response.text()).toBe(true);
  const [entry] = (await response.json()).data as {
    doses: { time: string; is_taken: boolean | null; marked_by_name: string | null }[];
  }[];
  return entry?.doses.find((dose) => dose.time === '08:00') ?? null;
}

const homeCards = (page: Page) => page.getByRole('main').locator('[data-testid^="home-"]');
const medicinesCard = (page: Page) => page.getByTestId('home-medicines');
/** Today's 08:00 dose of the medicine in the Home card. */
const morningDose = (page: Page) =>
  medicinesCard(page).getByTestId('slot-08:00').getByTestId('dose').filter({ hasText: MEDICINE });

async function expectMarkButtonsLarge(buttons: Locator) {
  await expectTapTargets(buttons);
  for (const button of await buttons.all()) {
    const box = await button.boundingBox();
    expect(box?.height ?? 0, 'a Taken / Not taken button is at least 56 px high').toBeGreaterThanOrEqual(
      MARK_BUTTON_PX,
    );
  }
}

async function signInOnNewDevice(browser: Browser, account: Account, viewport = PHONE) {
  const context = await browser.newContext({ viewport, timezoneId: ZONE });
  const page = await context.newPage();
  await signIn(page, account);
  return { context, page };
}

test.describe('at 390 x 844', () => {
  test.use({ viewport: PHONE, timezoneId: ZONE });

  test('a caregiver marks the 08:00 dose taken offline; it stays after a reload and reaches the patient’s device', async ({
    page,
    context,
    request,
    browser,
  }) => {
    const patient = await patientWithPrescription(request, 'Rosa Regimen');
    const caregiver = await linkedCaregiver(request, patient, 'Cam Carer', [
      'ReadPrescription',
      'EditPrescription',
    ]);

    await signIn(page, caregiver);
    await waitForServiceWorker(page);
    await syncNow(page);
    // The only patient is selected by itself; their medicines are Home's first card.
    await expect(morningDose(page)).toBeVisible();
    await expect(homeCards(page).first()).toHaveAttribute('data-testid', 'home-medicines');
    await expect(medicinesCard(page).getByTestId('slot-20:00')).toContainText(MEDICINE);

    // No signal from here on, and the app is opened afresh (the service worker serves it).
    await context.setOffline(true);
    await page.reload();
    await expect(morningDose(page)).toBeVisible();
    await expect(morningDose(page)).toContainText('Take 1 tablet by mouth twice daily');
    await expect(morningDose(page)).not.toContainText('Taken by');
    const taken = morningDose(page).getByRole('button', { name: 'Taken', exact: true });
    await expect(taken).toHaveAttribute('aria-pressed', 'false');
    await expectMarkButtonsLarge(medicinesCard(page).getByTestId('dose').getByRole('button'));
    await taken.click();
    await expect(morningDose(page)).toContainText('Taken by Cam Carer at');
    await expect(taken).toHaveAttribute('aria-pressed', 'true');
    await expect(medicinesCard(page).getByTestId('slot-08:00').getByRole('heading')).toContainText('Taken');
    await expect(page.getByTestId('home-sync-state')).toHaveText('Offline · 1 waiting');

    await page.reload();
    await expect(morningDose(page)).toContainText('Taken by Cam Carer at');
    await expect(morningDose(page).getByRole('button', { name: 'Taken', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expectNoHorizontalOverflow(page, medicinesCard(page));
    await expectTapTargets(medicinesCard(page).locator('a:visible, button:visible'));
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'light' });

    // Back online: the mark is sent, and the server holds it as the caregiver's.
    await context.setOffline(false);
    await syncNow(page);
    await expect(page.getByTestId('home-sync-state')).toHaveText('Online');
    await expect
      .poll(() => serverDose(request, patient))
      .toMatchObject({ is_taken: true, marked_by_name: 'Cam Carer' });

    // The patient's own phone shows who took care of it.
    const own = await signInOnNewDevice(browser, patient);
    await expect(homeCards(own.page).first()).toHaveAttribute('data-testid', 'home-medicines');
    await expect(morningDose(own.page)).toContainText('Taken by Cam Carer at');
    await expect(morningDose(own.page).getByRole('button', { name: 'Taken', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expectNoHorizontalOverflow(own.page, medicinesCard(own.page));
    await expectNoAxeViolations(own.page);
    await own.context.close();
  });

  test('a caregiver who may only read sees the schedule, with no Taken buttons', async ({
    page,
    request,
  }) => {
    const patient = await patientWithPrescription(request, 'Rita Readonly');
    const caregiver = await linkedCaregiver(request, patient, 'Rob Reader', ['ReadPrescription']);
    await signIn(page, caregiver);
    await expect(morningDose(page)).toBeVisible();
    await expect(homeCards(page).first()).toHaveAttribute('data-testid', 'home-medicines');
    await expect(medicinesCard(page).getByTestId('dose')).toHaveCount(2);
    await expect(medicinesCard(page).getByRole('button', { name: 'Taken', exact: true })).toHaveCount(0);
    await expect(medicinesCard(page).getByRole('button', { name: 'Not taken', exact: true })).toHaveCount(0);
    await expect(medicinesCard(page).getByRole('link', { name: 'Open the full schedule' })).toHaveAttribute(
      'href',
      '/caregiver/prescriptions',
    );
    await expectNoHorizontalOverflow(page, medicinesCard(page));
    await expectNoAxeViolations(page);

    // The full schedule on /caregiver/prescriptions: the doses, and still no way to mark them.
    await medicinesCard(page).getByRole('link', { name: 'Open the full schedule' }).click();
    await expect(page).toHaveURL(/\/caregiver\/prescriptions$/);
    const schedule = page.getByTestId('medicine-schedule');
    await expect(schedule.getByTestId('dose').filter({ hasText: MEDICINE })).toHaveCount(2);
    await expect(schedule.getByRole('button', { name: 'Taken', exact: true })).toHaveCount(0);
    await expect(schedule.getByRole('button', { name: 'Not taken', exact: true })).toHaveCount(0);
  });

  test('a caregiver without Read Prescription keeps the text card, first on Home', async ({
    page,
    request,
  }) => {
    const patient = await patientWithPrescription(request, 'Nina Noaccess');
    const caregiver = await linkedCaregiver(request, patient, 'Nate Notallowed', ['ReadAppointment']);
    await signIn(page, caregiver);
    await expect(page.getByTestId('home-appointments')).not.toContainText('Select a patient');
    await expect(homeCards(page).first()).toHaveAttribute('data-testid', 'home-medicines');
    await expect(medicinesCard(page)).toContainText('The patient has not given you access to this section.');
    await expect(medicinesCard(page).getByTestId('dose')).toHaveCount(0);
  });

  test('the patient marks a dose, and the full schedule charts the doses taken over 7 and 30 days', async ({
    page,
    request,
  }) => {
    const patient = await patientWithPrescription(request, 'Paula Patient');
    await signIn(page, patient);
    await expect(homeCards(page).first()).toHaveAttribute('data-testid', 'home-medicines');
    await morningDose(page).getByRole('button', { name: 'Taken', exact: true }).click();
    await expect(morningDose(page)).toContainText('Taken by Paula Patient at');
    await expect
      .poll(() => serverDose(request, patient))
      .toMatchObject({ is_taken: true, marked_by_name: 'Paula Patient' });

    // The full schedule (on Prescriptions): yesterday's doses are marked late through the day picker.
    await medicinesCard(page).getByRole('link', { name: 'Open the full schedule' }).click();
    await expect(page).toHaveURL(/\/prescriptions$/);
    const schedule = page.getByTestId('medicine-schedule');
    await expect(schedule.getByTestId('schedule-day')).toContainText('Today');
    await schedule.getByRole('button', { name: 'Previous day' }).click();
    await expect(schedule.getByTestId('schedule-day')).toContainText('Yesterday');
    for (const time of ['08:00', '20:00']) {
      const dose = schedule.getByTestId(`slot-${time}`).getByTestId('dose').filter({ hasText: MEDICINE });
      await dose.getByRole('button', { name: 'Taken', exact: true }).click();
      await expect(dose).toContainText('Taken by Paula Patient on');
    }
    await expectMarkButtonsLarge(schedule.getByTestId('dose').getByRole('button'));

    // Adherence: a figure, the same in words, and a bar for each day that had doses due.
    const adherence = schedule.getByTestId('adherence');
    await expect(adherence.getByTestId('adherence-figure')).toHaveText(/^\d+%$/);
    await expect(adherence.getByTestId('adherence-summary')).toHaveText(
      /^\d+% of doses taken in the last 7 days \(\d+ of \d+\)$/,
    );
    // Yesterday has a bar, and today once its 08:00 dose is due (it is marked taken either way).
    await expect(adherence.getByTestId('adherence-chart').locator('rect')).toHaveCount(await barsExpected());
    await adherence.getByRole('button', { name: '30 days' }).click();
    await expect(adherence.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    await expect(adherence.getByTestId('adherence-summary')).toContainText('in the last 30 days');
    // Days before the prescription had nothing due: no bar, not 0%.
    await expect(adherence.getByTestId('adherence-chart').locator('[data-due="0"]')).toHaveCount(
      30 - (await barsExpected()),
    );

    await expect(schedule.getByRole('switch', { name: 'Reminders on this device' })).toBeVisible();
    await expectNoHorizontalOverflow(page, schedule);
    await expectTapTargets(schedule.locator('a:visible, button:visible'));
    await expectNoAxeViolations(page);
  });
});

/** Days with a dose due by now in ZONE: yesterday, and today once it is past 08:00 there. */
async function barsExpected(): Promise<number> {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', hourCycle: 'h23' }).format(
      new Date(),
    ),
  );
  return hour >= 8 ? 2 : 1;
}

test.describe('at 1280 x 800', () => {
  test.use({ viewport: { width: 1280, height: 800 }, timezoneId: ZONE });

  test('the medicines card leads Home on a laptop, with its Taken buttons', async ({ page, request }) => {
    const patient = await patientWithPrescription(request, 'Lena Laptop');
    await signIn(page, patient);
    await expect(homeCards(page).first()).toHaveAttribute('data-testid', 'home-medicines');
    await expect(morningDose(page)).toBeVisible();
    await expectMarkButtonsLarge(medicinesCard(page).getByTestId('dose').getByRole('button'));
    await expectNoHorizontalOverflow(page, medicinesCard(page));
    await expectNoAxeViolations(page);
  });
});

// A medicine added after one of today's dose times: that dose was nobody's to take, so it is neither
// missed nor counted. The zone is one where it is now well into the day (so the dose 90 minutes ago is
// today's): the browser runs in that zone too.
const DAYTIME_ZONE =
  ['America/New_York', 'Asia/Tokyo', 'Europe/London', 'America/Los_Angeles'].find((zone) => {
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(
        new Date(),
      ),
    );
    return hour >= 3 && hour < 22;
  }) ?? 'Asia/Tokyo';

/** A wall-clock time and its day in `zone`, `minutes` before now. */
function earlierInZone(zone: string, minutes: number) {
  const at = new Date(Date.now() - minutes * 60_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

test.describe('a medicine added after its dose time', () => {
  test.use({ viewport: PHONE, timezoneId: DAYTIME_ZONE });

  test('shows that dose as before the medicine was added, not missed, and counts no adherence for it', async ({
    page,
    request,
  }) => {
    const patient = await createAccount(request, 'Patient', 'Nadia New');
    const dose = earlierInZone(DAYTIME_ZONE, 90);
    const created = await request.post('/api/prescriptions', {
      headers: bearer(patient.token),
      data: {
        patient_id: patient.patientId,
        medicine_name: 'Lisinopril',
        strength: '10 mg',
        form: 'tablet',
        directions: 'Take 1 tablet daily',
        start_date: dose.date,
        times: [dose.time],
        time_zone: DAYTIME_ZONE,
      },
    });
    expect(created.status(), await created.text()).toBe(201);

    await signIn(page, patient);
    const card = medicinesCard(page);
    const row = card.getByTestId(`slot-${dose.time}`).getByTestId('dose').filter({ hasText: 'Lisinopril' });
    await expect(row).toHaveAttribute('data-state', 'before-added');
    await expect(row).toContainText('Before this medicine was added');
    await expect(card).not.toContainText(/missed/i);
    // No adherence yet: nothing was due since the medicine was added.
    await expect(card.getByTestId('adherence-summary')).toHaveCount(0);
    // It can still be marked, if it was taken before the medicine was added here.
    await expect(row.getByRole('button', { name: 'Taken', exact: true })).toBeVisible();

    await card.getByRole('link', { name: 'Open the full schedule' }).click();
    const schedule = page.getByTestId('medicine-schedule');
    await expect(schedule.getByTestId('adherence').getByTestId('adherence-figure')).toHaveText('–');
    await expect(schedule).not.toContainText(/missed/i);
    await expectNoHorizontalOverflow(page, schedule);
    await expectNoAxeViolations(page);

    // The server says the same of that dose.
    const answer = await request.get(`/api/prescriptions/schedule?date=${dose.date}`, {
      headers: bearer(patient.token),
    });
    const [entry] = (await answer.json()).data as { doses: { time: string; state: string }[] }[];
    expect(entry?.doses).toEqual([expect.objectContaining({ time: dose.time, state: 'before-added' })]);
  });
});
