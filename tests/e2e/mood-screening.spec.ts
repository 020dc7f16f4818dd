import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  bearer,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  signIn,
  syncNow,
  VIEWPORTS,
  type Account,
  WITHOUT_SERVICE_WORKER,
} from './support';

// Online screens only: without the service worker (support.ts: WITHOUT_SERVICE_WORKER).
test.use(WITHOUT_SERVICE_WORKER);

// The check-ins' mood screening (PHQ-2) is the patient's to share. A patient checked in today, the PHQ-2
// questions and their follow-up answered; a caregiver who may read their medical history sees the rest
// of the day (on Home and in the charts with the history) and nothing of the screening. The patient turns
// the sharing on from the switch above their check-in charts; after a sync the caregiver sees the answers
// and the PHQ-2 chart; turned off again, they are gone from the caregiver's device after its next sync.
// Each state at the phone's and the laptop's size: axe, no sideways scrolling, 44 px targets.

const ZONE = 'America/New_York';
const deviceToday = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

test.use({ timezoneId: ZONE, viewport: VIEWPORTS[0], caregiverPermissions: ['ReadMedicalHistory'] });

const SWITCH = 'Share my mood screening (PHQ-2) answers with caregivers who can read my medical history';
/** What only the screening's answers and questions say (its options and its prompts). */
const SCREENING_TEXT = /PHQ-2|Nearly every day|little interest|down, depressed|bring it up/;

async function checkIn(request: APIRequestContext, patient: Account) {
  for (const [question_id, answer] of [
    ['mood', 'not_so_good'],
    ['sleep', '6'],
    ['pain', 0],
    ['symptoms', ['none']],
    ['medicines', 'yes'],
    ['phq2_interest', 'nearly_every_day'],
    ['phq2_down', 'more_than_half'],
    ['phq2_follow_up', 'yes'],
  ] as const) {
    const answered = await request.post('/api/interactions/respond', {
      headers: bearer(patient.token),
      data: { day: deviceToday(), question_id, answer },
    });
    expect(answered.ok(), await answered.text()).toBe(true);
  }
}

async function sharedOnServer(request: APIRequestContext, patient: Account): Promise<boolean> {
  const response = await request.get('/api/medical-history', { headers: bearer(patient.token) });
  return ((await response.json()) as { data: { share_mood_screening: boolean } }).data.share_mood_screening;
}

/** The patient's own browser, beside the caregiver's. */
async function patientBrowser(browser: Browser, patient: Account) {
  const context = await browser.newContext({
    viewport: VIEWPORTS[0],
    timezoneId: ZONE,
    baseURL: process.env.E2E_BASE_URL,
  });
  const page = await context.newPage();
  await signIn(page, patient, '/medical-history');
  return { context, page };
}

const history = (page: Page) => page.getByTestId('check-in-history');
const charts = (page: Page) => history(page).getByTestId('chart');
const phq2Chart = (page: Page) => charts(page).filter({ hasText: 'PHQ-2' });

async function checkEachSize(page: Page) {
  await atEachViewport(page, async () => {
    await expectNoHorizontalOverflow(page, history(page));
    await expectTapTargets(page.locator('main').locator('a:visible, button:visible'));
    await expectNoAxeViolations(page);
  });
}

/** The caregiver's device after a sync: Home's card, then the charts with the history. */
async function caregiverSees(page: Page, screening: boolean) {
  await page.goto('/caregiver/dashboard');
  await syncNow(page);
  const card = page.getByTestId('home-check-in');
  await expect(card).toContainText('The patient completed today’s check-in.');
  await expect(card.getByTestId('check-in-answers')).toContainText('Not so good');
  if (screening) await expect(card.getByTestId('check-in-answers')).toContainText('Nearly every day');
  else await expect(card.getByTestId('check-in-answers')).not.toContainText(SCREENING_TEXT);

  await page.goto('/caregiver/medical-history');
  await expect(history(page)).toContainText('Checked in on 1 of the last 30 days.');
  await expect(charts(page)).toHaveCount(screening ? 4 : 3);
  await expect(history(page).getByRole('switch')).toHaveCount(0);
  if (screening) {
    await phq2Chart(page).getByText('Show the values').click();
    await expect(phq2Chart(page).getByRole('row').last()).toContainText('5');
  } else {
    await expect(page.locator('main')).not.toContainText(SCREENING_TEXT);
  }
}

test('a caregiver sees the mood screening only once the patient shares it, and not after they stop', async ({
  browser,
  page,
  patient,
  caregiver,
  request,
}) => {
  await checkIn(request, patient);
  await signIn(page, caregiver);
  await caregiverSees(page, false);
  await checkEachSize(page);

  // The patient's own charts with their history: theirs whole, and the switch, off.
  const own = await patientBrowser(browser, patient);
  const toggle = history(own.page).getByRole('switch', { name: SWITCH });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(history(own.page)).toContainText('Off: they see your other check-in answers, but not these.');
  await expect(phq2Chart(own.page)).toBeVisible();
  await checkEachSize(own.page);

  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(history(own.page)).toContainText('On: they see these answers and their score');
  await syncNow(own.page);
  await expect.poll(() => sharedOnServer(request, patient)).toBe(true);
  await checkEachSize(own.page);

  await caregiverSees(page, true);
  await checkEachSize(page);

  // Turned off again: the caregiver's device lets go of the answers it had on its next sync.
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await syncNow(own.page);
  await expect.poll(() => sharedOnServer(request, patient)).toBe(false);
  await caregiverSees(page, false);
  const held = await page.evaluate(
    async ({ userId }) =>
      new Promise<string[]>((resolve, reject) => {
        const opening = indexedDB.open(`kincare-${userId}`);
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const read = opening.result.transaction('check_ins').objectStore('check_ins').getAll();
          read.onsuccess = () => {
            opening.result.close();
            const rows = read.result as { answers: { question_id: string }[] }[];
            resolve(rows.flatMap((row) => row.answers.map((entry) => entry.question_id)));
          };
        };
      }),
    { userId: caregiver.userId },
  );
  expect(held).toEqual(['mood', 'sleep', 'pain', 'symptoms', 'medicines']);
  await own.context.close();
});
