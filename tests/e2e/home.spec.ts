import type { APIRequestContext, Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { expect, test } from './fixtures';
import {
  VIEWPORTS,
  atEachViewport,
  createAccount,
  createSeededPatient,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  linkCaregiverThroughApi,
  signIn,
  waitForServiceWorker,
} from './support';

// Home: the next appointments and the sync state from this device,
// the latest lab results with the values outside their range named High or Low (offline too), the
// check-in and Fitbit cards, each empty card saying what to do with a link to a screen that exists, honest
// "coming soon" pages for the menu entries not built yet, and an 'Unauthorized Access' page with a way back.
// Each journey runs once, on a phone; what each state looks like is checked at the phone's and the
// laptop's size (atEachViewport).

const main = (page: Page) => page.getByRole('main');
const card = (page: Page, id: string) => page.getByTestId(`home-${id}`);

/** Everything tappable on the page itself (the shell has its own tests). */
const mainTargets = (page: Page) => main(page).locator('a:visible, button:visible');

/** A local 'yyyy-MM-ddTHH:mm' a number of days from now, as ISO in UTC. */
function daysFromNow(days: number, hour = 9, minute = 30): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  date.setHours(hour, minute, 0, 0);
  return date.toISOString();
}

async function book(
  request: APIRequestContext,
  token: string,
  patientId: string,
  title: string,
  date: string,
  status = 'scheduled',
) {
  const response = await request.post('/api/appointments', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      id: crypto.randomUUID(),
      patient_id: patientId,
      appointment_title: title,
      appointment_date: date,
      status,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** A lab report with its results, added through the API (as another device would), dated `daysAgo` days back. */
async function labReport(
  request: APIRequestContext,
  token: string,
  patientId: string,
  type: string,
  daysAgo: number,
  results: { name: string; value: string; unit: string; flag: 'H' | 'L' | ''; reference_range: string }[],
) {
  const date = new Date();
  date.setDate(date.getDate() - daysAgo);
  const day = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  // The report's file: a blank one-page PDF (what Home shows comes from the reviewed results).
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  const uploaded = await request.post('/api/upload-image?type=lab', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      image: { name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await pdf.save()) },
    },
  });
  expect(uploaded.ok(), await uploaded.text()).toBe(true);
  const response = await request.post('/api/lab-reports', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      patient_id: patientId,
      attachment_key: (await uploaded.json()).files[0].key as string,
      report_type: type,
      report_date: day,
      report_ocr: JSON.stringify({ lab_results: results }),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/**
 * What the page's layout shifts add up to so far (the sum behind Cumulative Layout Shift, leaving out
 * shifts right after input): how far content the person was reading moved under their eyes.
 */
async function layoutShiftSoFar(page: Page): Promise<{ total: number; moved: string[] }> {
  return page.evaluate(
    () =>
      new Promise<{ total: number; moved: string[] }>((resolve) => {
        type Shift = PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
          sources: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
        };
        let total = 0;
        const moved: string[] = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Shift[]) {
            if (entry.hadRecentInput) continue;
            total += entry.value;
            for (const source of entry.sources)
              moved.push(
                `${(source.node?.textContent ?? '?').slice(0, 60)}: y ${source.previousRect.y} -> ${source.currentRect.y}, h ${source.previousRect.height} -> ${source.currentRect.height}`,
              );
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve({ total, moved }), 200);
      }),
  );
}

async function checkLayout(page: Page) {
  await expectNoHorizontalOverflow(page, main(page));
  await expectTapTargets(mainTargets(page));
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('on a phone, each state at both sizes', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test('a new patient’s Home: every card empty, each saying what to do and leading to a screen that exists', async ({
    patientPage: page,
  }) => {
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

    const next = card(page, 'appointments');
    await expect(next.getByRole('heading', { name: 'Next appointments' })).toBeVisible();
    await expect(next).toContainText('No upcoming appointments.');
    await expect(card(page, 'sync')).toContainText('Every change is saved on the server.');
    await expect(page.getByTestId('home-sync-state')).toHaveText('Online');
    await expect(card(page, 'results')).toContainText('No lab reports yet.');
    for (const [id, heading] of [
      ['medicines', 'Today’s medicines'],
      ['results', 'Latest results'],
      ['check-in', 'Check-in'],
      ['fitbit', 'Fitbit'],
    ] as const) {
      await expect(card(page, id).getByRole('heading', { name: heading })).toBeVisible();
    }
    await atEachViewport(page, () => checkLayout(page));

    // Each empty card's link opens a real screen, and that screen leads back home.
    const links = [
      { id: 'appointments', link: 'Add an appointment', url: /\/appointments$/, heading: 'Appointments' },
      { id: 'medicines', link: 'Add a prescription', url: /\/prescriptions$/, heading: 'Prescriptions' },
      { id: 'results', link: 'Go to Lab Reports', url: /\/lab-report$/, heading: 'Lab Report History' },
    ];
    for (const { id, link, url, heading } of links) {
      await card(page, id).getByRole('link', { name: link }).click();
      await expect(page).toHaveURL(url);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      if (id === 'appointments') {
        await expect(page.getByRole('button', { name: 'New appointment' })).toBeVisible();
        await page.goBack();
      } else if (id === 'medicines') {
        await expect(
          main(page)
            .getByRole('button', { name: /add (your first )?prescription/i })
            .first(),
        ).toBeVisible();
        await page.goBack();
      } else {
        await expect(main(page).getByText('No reports found.')).toBeVisible();
        await expect(main(page).getByRole('button', { name: 'Upload a report' })).toBeVisible();
        await page.goBack();
      }
      await expect(page).toHaveURL(/\/dashboard$/);
    }
    // No results yet: they may be in a file from the patient's portal.
    await card(page, 'results')
      .getByRole('link', { name: 'Import records from your patient portal' })
      .click();
    await expect(page).toHaveURL(/\/medical-history\/import$/);
    await expect(page.getByRole('heading', { name: 'Import records', level: 1 })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a patient’s Home with appointments and unsent changes: the next three, soonest first, and the sync state', async ({
    page,
    patient,
    context,
    request,
  }) => {
    const { token, patientId } = patient;
    await book(request, token, patientId, 'Last week’s check-up', daysFromNow(-7));
    await book(request, token, patientId, 'Dermatology', daysFromNow(9));
    await book(request, token, patientId, 'Cardiology', daysFromNow(2, 10, 7));
    await book(request, token, patientId, 'Cancelled scan', daysFromNow(1), 'cancelled');
    await book(request, token, patientId, 'Physiotherapy', daysFromNow(5));
    await book(
      request,
      token,
      patientId,
      'Eye exam with a rather long title that must wrap on a phone',
      daysFromNow(12),
    );
    await signIn(page, patient); // the app syncs on start

    const next = card(page, 'appointments');
    await expect(next.getByRole('listitem')).toHaveCount(3);
    await expect(next.getByRole('listitem').first()).toContainText('Cardiology');
    await expect(next.getByRole('listitem').first()).toContainText('10:07');
    expect(await next.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining('Cardiology'),
      expect.stringContaining('Physiotherapy'),
      expect.stringContaining('Dermatology'),
    ]);
    await expect(next).not.toContainText('Cancelled scan');
    await expect(next).not.toContainText('Last week');
    await expect(card(page, 'sync')).toContainText('Last synced');
    await atEachViewport(page, () => checkLayout(page));

    // A change made offline waits on this device, and Home says so; back online it is sent.
    await next.getByRole('link', { name: 'See all appointments' }).click();
    // The signal goes once the screen is there, as a person would have seen it: gone while its code was
    // still coming, the router reloads the page (stale-chunk recovery) and a browser the service worker
    // does not yet control shows its own offline page.
    await expect(page.getByRole('button', { name: 'New appointment' })).toBeVisible();
    await context.setOffline(true);
    await page.getByRole('button', { name: 'New appointment' }).click();
    const form = page.getByRole('form', { name: 'New appointment' });
    await form.getByRole('textbox', { name: 'Title' }).fill('Dentist');
    const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
    const local = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}T08:05`;
    await form.getByLabel('Date and time').fill(local);
    await form.getByRole('button', { name: 'Add appointment' }).click();
    await expect(page.getByText('Appointment added').last()).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('home-sync-state')).toHaveText('Offline · 1 waiting');
    await expect(card(page, 'sync')).toContainText(
      '1 change is saved on this device and will be sent when you are back online.',
    );
    await expect(card(page, 'sync').getByRole('button', { name: 'Sync now' })).toBeDisabled();
    await expect(next.getByRole('listitem').first()).toContainText('Dentist');
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page, main(page));
      await expectNoAxeViolations(page);
    });

    await context.setOffline(false);
    await card(page, 'sync').getByRole('button', { name: 'Sync now' }).click();
    await expect(page.getByTestId('home-sync-state')).toHaveText('Online');
    await expect(card(page, 'sync')).toContainText('Every change is saved on the server.');
  });

  test('Home draws its cards once, where they stay: a reload moves nothing the person is reading', async ({
    page,
    patient,
    request,
  }) => {
    await book(request, patient.token, patient.patientId, 'Cardiology', daysFromNow(2));
    await book(request, patient.token, patient.patientId, 'Dermatology', daysFromNow(9));
    await signIn(page, patient); // the app syncs on start: the appointments reach this device
    await expect(card(page, 'appointments').getByRole('listitem')).toHaveCount(2);

    // Opened again, Home reads everything from the device: each card is drawn once with its content
    // (the medicines card says at once that there is nothing today, without loading the schedule), and
    // what loads after it (the sync client, the weather, the other cards' content) moves nothing above.
    // Each size has its own layout: opened at each.
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.reload();
      await expect(card(page, 'appointments').getByRole('listitem')).toHaveCount(2);
      await expect(card(page, 'medicines')).toContainText('No medicines to take today.');
      await expect(card(page, 'sync')).toContainText('Last synced');
      await expect(card(page, 'results')).toContainText('No lab reports yet.');
      // The sync status taking its placeholder's place may nudge the header by a hair (about 0.00001); a
      // card that moved, as when each card was drawn on its own answer, scores 0.015 and more.
      const shift = await layoutShiftSoFar(page);
      expect(shift.total, `${viewport.width} px: ${shift.moved.join('\n')}`).toBeLessThan(0.001);
    }
  });

  test('a patient’s latest lab results on Home: a high value named in words, the report’s type and date, offline after a reload too', async ({
    page,
    patient,
    context,
    request,
  }) => {
    const { token, patientId } = patient;
    await labReport(request, token, patientId, 'Thyroid Panel', 40, [
      { name: 'TSH', value: '2.1', unit: 'mIU/L', flag: '', reference_range: '0.4-4.0' },
    ]);
    await labReport(request, token, patientId, 'Lipid Panel with a rather long name that must wrap', 3, [
      { name: 'Total Cholesterol', value: '185', unit: 'mg/dL', flag: '', reference_range: '< 200' },
      { name: 'HDL Cholesterol', value: '52', unit: 'mg/dL', flag: '', reference_range: '>= 40' },
      { name: 'LDL Cholesterol', value: '162', unit: 'mg/dL', flag: 'H', reference_range: '< 130' },
    ]);
    await signIn(page, patient); // the app syncs on start
    await waitForServiceWorker(page);

    const results = card(page, 'results');
    const reports = results.getByTestId('home-result-report');
    await expect(reports).toHaveCount(2);
    const newest = reports.first();
    await expect(newest.getByRole('heading', { level: 3 })).toHaveText(
      'Lipid Panel with a rather long name that must wrap',
    );
    await expect(newest).toContainText('Report date');
    await expect(newest).toContainText('1 of 3 results is outside the reference range.');
    // The value outside its range comes first, and says High in words, not by colour alone.
    const first = newest.getByTestId('home-result').first();
    await expect(first).toContainText('LDL Cholesterol');
    await expect(first).toContainText('162 mg/dL');
    await expect(first).toContainText('High');
    await expect(first).toContainText('Reference range < 130');
    await expect(first).toHaveAttribute('data-flag', 'H');
    await expect(reports.nth(1).getByRole('heading', { level: 3 })).toHaveText('Thyroid Panel');
    await expect(results.getByRole('link', { name: 'See all lab reports' })).toHaveAttribute(
      'href',
      '/lab-report',
    );
    for (const [id, heading] of [
      ['check-in', 'Check-in'],
      ['fitbit', 'Fitbit'],
    ] as const) {
      await expect(card(page, id).getByRole('heading', { name: heading })).toBeVisible();
      // Each card's content has loaded (not its loading sentence any more).
      await expect(card(page, id)).not.toContainText('Checking');
    }
    await atEachViewport(page, () => checkLayout(page));

    // Offline, after a reload: the same results, read from this device.
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId('home-sync-state')).toHaveText('Offline');
    await expect(reports).toHaveCount(2);
    await expect(newest.getByTestId('home-result').first()).toContainText('High');
    await expect(card(page, 'check-in').getByRole('heading', { name: 'Check-in' })).toBeVisible();
    await expect(card(page, 'fitbit').getByRole('heading', { name: 'Fitbit' })).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page, main(page));
      await expectTapTargets(mainTargets(page));
      await expectNoAxeViolations(page);
    });
    await context.setOffline(false);

    // The link leads to the whole history.
    await results.getByRole('link', { name: 'See all lab reports' }).click();
    await expect(page).toHaveURL(/\/lab-report$/);
    await expect(page.getByRole('heading', { name: 'Lab Report History', level: 1 })).toBeVisible();
  });

  test('a caregiver’s Home without a selected patient says what to do; its links lead somewhere real', async ({
    page,
    request,
  }) => {
    await signIn(page, await createAccount(request, 'Caregiver', 'Cora Carer'));
    await expect(page).toHaveURL(/\/caregiver\/dashboard$/);
    await expect(page.getByTestId('home-no-patient')).toContainText('No patient is selected.');
    await expect(card(page, 'appointments')).toContainText(
      'Select a patient to see their next appointments.',
    );
    await atEachViewport(page, () => checkLayout(page));
    await page.getByTestId('home-no-patient').getByRole('link', { name: 'Go to Patients' }).click();
    await expect(page).toHaveURL(/\/caregiver\/patients$/);
    await expect(page.getByRole('heading', { name: 'Patients', level: 1 })).toBeVisible();
    await expect(main(page)).not.toContainText('Coming soon');
    await expect(main(page)).toContainText('No patients yet.');
    // Nothing to tap yet (the patient's invitation brings the first request): only layout and contrast.
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page, main(page));
      await expectNoAxeViolations(page);
    });
  });

  test('every menu entry leads to a real screen, and Unauthorized Access offers a way back', async ({
    page,
    request,
  }) => {
    // Signed out: the product's text, why, and sign-in.
    await page.goto('/unauthorized');
    await expect(page.getByRole('heading', { name: 'Unauthorized Access' })).toBeVisible();
    await expect(main(page)).toContainText('This page needs you to be signed in.');
    await atEachViewport(page, () => checkLayout(page));
    await main(page).getByRole('link', { name: 'Go to sign in' }).click();
    await expect(page).toHaveURL(/\/login$/);

    // Medical History was the last "coming soon" entry (its own tests check it).
    await signIn(page, await createAccount(request, 'Patient', 'Pia Pages'), '/medical-history');
    await expect(page.getByRole('heading', { name: 'Medical History', level: 1 })).toBeVisible();
    await expect(main(page)).not.toContainText('Coming soon');

    // A patient on a caregiver page: why, and the way back to their own home.
    await page.goto('/caregiver/dashboard');
    await expect(page).toHaveURL(/\/unauthorized$/);
    await expect(page.getByRole('heading', { name: 'Unauthorized Access' })).toBeVisible();
    await expect(main(page)).toContainText('This page is for another kind of account.');
    await atEachViewport(page, () => checkLayout(page));
    await main(page).getByRole('link', { name: 'Back to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

/**
 * Waits until every card of a patient with records shows its content (no card still loading): today's
 * doses and the week's adherence, the next three appointments, the sync state, two lab reports, today's
 * check-in at its next question, the Fitbit card and the vitals.
 */
async function homeFilled(page: Page) {
  await expect(card(page, 'medicines').getByTestId('dose').first()).toBeVisible();
  await expect(card(page, 'medicines').getByTestId('adherence-summary')).toBeVisible();
  await expect(card(page, 'appointments').getByRole('listitem')).toHaveCount(3);
  await expect(card(page, 'sync')).toContainText('Last synced');
  await expect(card(page, 'results').getByTestId('home-result-report')).toHaveCount(2);
  await expect(card(page, 'check-in').getByRole('group')).toBeVisible(); // today's next question
  await expect(page.getByTestId('vitals-home')).toBeVisible();
  for (const id of ['medicines', 'results', 'check-in', 'fitbit', 'vitals'])
    await expect(card(page, id)).not.toContainText(/Checking|Opening|Reading/);
}

test.describe('a patient with two years of records', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test('Home keeps its height as its cards fill: opened again at a phone’s and a laptop’s size, nothing moves', async ({
    page,
    request,
  }) => {
    // Two years of records to make and sync, and axe on a long page at two sizes: about a minute and a
    // half on this 2-core machine under load.
    test.setTimeout(180_000);
    // As the Lighthouse benchmark's populated account (tests/bench/lighthouse.ts): 12 prescriptions with
    // their marks, 40 appointments, 20 lab reports, the medical history, the last week's check-ins.
    const patient = await createSeededPatient(request, 'Sam Seeded');
    await signIn(page, patient); // the app's first sync brings the records onto this device
    await homeFilled(page);

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      // Opened again, as a person opens the app each day: everything comes from the device's tables.
      await page.reload();
      await homeFilled(page);
      // What loads after the cards (the sync client, the weather) has its moment too.
      await page.waitForTimeout(500);
      const shift = await layoutShiftSoFar(page);
      expect(shift.total, `${viewport.width} px: ${shift.moved.join('\n')}`).toBeLessThanOrEqual(0.05);
      await checkLayout(page);

      // Using its controls moves nothing later on: what a control changes shows at once (a shift right
      // after the tap is the person's own doing, and not counted), never a moment later by itself.
      const dose = card(page, 'medicines').getByTestId('dose').first();
      const taken = viewport === VIEWPORTS[0] ? 'Taken' : 'Not taken';
      await dose.getByRole('button', { name: taken, exact: true }).click();
      await expect(dose.getByRole('button', { name: taken, exact: true })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await card(page, 'sync').getByRole('button', { name: 'Sync now' }).click();
      await expect(card(page, 'sync').getByRole('button', { name: 'Sync now' })).toBeEnabled();
      await card(page, 'check-in').getByRole('group').getByRole('button').first().click();
      await expect(card(page, 'check-in').getByTestId('check-in-answers')).toBeVisible();
      await page.waitForTimeout(1500);
      const used = await layoutShiftSoFar(page);
      expect(used.total, `${viewport.width} px, used: ${used.moved.join('\n')}`).toBeLessThanOrEqual(0.05);
    }
  });
});

test('a caregiver’s Home for the selected patient: results and check-in with the Read permissions, and why not without', async ({
  page,
  browser,
  request,
}) => {
  const patient = await createAccount(request, 'Patient', 'Paz Patient');
  const patientToken = patient.token;
  await labReport(request, patientToken, patient.patientId, 'Metabolic Panel', 2, [
    { name: 'Glucose', value: '61', unit: 'mg/dL', flag: 'L', reference_range: '70-99' },
  ]);
  const reader = await linkCaregiverThroughApi(request, patientToken, 'Rita Reader', [
    'ReadLabReport',
    'ReadMedicalHistory',
  ]);
  const booker = await linkCaregiverThroughApi(request, patientToken, 'Bo Booker', ['ReadAppointment']);

  await page.setViewportSize(VIEWPORTS[0]);
  await signIn(page, reader);
  // The only patient is selected by itself; the caregiver's Home shows that patient's cards.
  const result = card(page, 'results').getByTestId('home-result').first();
  await expect(result).toContainText('Glucose');
  await expect(result).toContainText('Low');
  await expect(card(page, 'results').getByRole('link', { name: 'See all lab reports' })).toHaveAttribute(
    'href',
    '/caregiver/lab-report',
  );
  await expect(card(page, 'check-in')).toContainText('The patient has not checked in yet today.');
  await checkLayout(page);
  // On the phone too, a reload draws the caregiver's Home once: the cards, then the summary below them.
  await page.reload();
  await expect(card(page, 'results').getByTestId('home-result').first()).toContainText('Glucose');
  await expect(page.getByTestId('care-summary')).toContainText('You are helping Paz Patient');
  const phoneShift = await layoutShiftSoFar(page);
  expect(phoneShift.total, phoneShift.moved.join('\n')).toBeLessThan(0.001);

  const other = await browser.newContext({ viewport: VIEWPORTS[1] });
  const otherPage = await other.newPage();
  await signIn(otherPage, booker);
  await expect(card(otherPage, 'appointments')).toBeVisible();
  for (const id of ['results', 'check-in', 'fitbit'])
    await expect(card(otherPage, id)).toContainText('The patient has not given you access to this section.');
  await expect(card(otherPage, 'results')).not.toContainText('Glucose');
  await checkLayout(otherPage);

  // Opened again, the caregiver's Home waits for the permissions before it draws its cards: it never says
  // 'no permission' for a card the caregiver may read, not even for a moment, and nothing moves.
  await otherPage.addInitScript(() => {
    const seen = { refused: false };
    Object.assign(window, { kincareSeen: seen });
    new MutationObserver(() => {
      if (document.body?.textContent?.includes('has not given you permission to see their appointments'))
        seen.refused = true;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await otherPage.reload();
  await expect(card(otherPage, 'appointments')).toContainText('No upcoming appointments for this patient.');
  const sawRefusal = await otherPage.evaluate(
    () => (window as unknown as { kincareSeen: { refused: boolean } }).kincareSeen.refused,
  );
  expect(sawRefusal).toBe(false);
  const shift = await layoutShiftSoFar(otherPage);
  expect(shift.total, shift.moved.join('\n')).toBeLessThan(0.001);
  await other.close();
});
