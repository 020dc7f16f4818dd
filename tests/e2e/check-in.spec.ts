import type { APIRequestContext, Page } from '@playwright/test';
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
  waitForServiceWorker,
} from './support';

// The daily health check-in on Home, as a patient does it on a phone and at a desk:
// a tap per answer, the next question at once; then the signal goes, the app is opened afresh, and the
// check-in goes on where it was; back online the answers reach the server in order. A caregiver who may
// read the patient's medical history sees how far the patient got, and cannot answer for them. The
// check-in runs once, on a phone; the card is checked at the phone's and the laptop's size.

const ZONE = 'America/New_York';

/** Today in ZONE ('YYYY-MM-DD'): the device's day, which the check-in is for. */
const deviceToday = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

test.use({ timezoneId: ZONE });

const card = (page: Page) => page.getByTestId('home-check-in');
const question = (page: Page, text: string | RegExp) => card(page).getByRole('heading', { name: text });

async function serverHistory(request: APIRequestContext, token: string) {
  const response = await request.get(`/api/interactions/init?day=${deviceToday()}`, {
    headers: bearer(token),
  });
  expect(response.ok(), await response.text()).toBe(true);
  const body = (await response.json()) as { history: { question_id: string; answer_text: string }[] };
  return body.history.map((entry) => `${entry.question_id}: ${entry.answer_text}`);
}

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS[0], timezoneId: ZONE });

  test('a patient checks in with a tap per answer, goes on offline after a reload, and it reaches the server', async ({
    patientPage: page,
    patient: { token },
    context,
    request,
  }) => {
    await waitForServiceWorker(page);

    await expect(question(page, 'How are you feeling today?')).toBeVisible();
    await card(page).getByRole('button', { name: 'Good', exact: true }).click();
    await expect(question(page, 'About how many hours did you sleep last night?')).toBeFocused();
    await card(page).getByRole('button', { name: '7 hours' }).click();
    await expect(question(page, 'How much pain are you in right now?')).toBeVisible();
    await atEachViewport(page, async () => {
      await expectTapTargets(card(page).getByRole('button'));
      await expectNoHorizontalOverflow(page, card(page));
    });

    // No signal, and the app opened afresh: the check-in goes on where it was.
    await context.setOffline(true);
    await page.reload();
    await expect(question(page, 'How much pain are you in right now?')).toBeVisible();
    await expect(card(page).getByTestId('check-in-answers')).toContainText('Good');
    await card(page).getByRole('button', { name: '2', exact: true }).click();
    await expect(question(page, "I'm sorry you're hurting. Where is the pain?")).toBeVisible();
    await card(page).getByLabel('Back').check();
    await card(page).getByRole('button', { name: 'Continue' }).click();
    await expect(question(page, /Have you noticed any of these today/)).toBeVisible();
    await expect(card(page)).toContainText('You are offline. Your answers are saved on this device');
    await page.reload();
    await expect(card(page).getByTestId('check-in-answers')).toContainText('2 out of 10');
    await expect(card(page).getByTestId('check-in-answers')).toContainText('Back');
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page, card(page));
      await expectTapTargets(card(page).locator('button:visible'));
      await expectNoAxeViolations(page);
    });

    // Back online: the four answers reach the server, in the order given.
    await context.setOffline(false);
    await syncNow(page);
    await expect
      .poll(() => serverHistory(request, token))
      .toEqual(['mood: Good', 'sleep: 7 hours', 'pain: 2 out of 10', 'pain_location: Back']);

    // Skipping the rest closes the day, with the product's words.
    await card(page).getByRole('button', { name: 'Skip today' }).click();
    await expect(card(page)).toContainText('No problem. You can check in again tomorrow.');
    await expect(card(page).getByRole('button', { name: 'Check in now' })).toBeVisible();
    await atEachViewport(page, () => expectNoAxeViolations(page));

    // The medical history charts the last 30 days from the device's tables: today's answers drawn.
    await page.goto('/medical-history');
    const history = page.getByTestId('check-in-history');
    await expect(history).toContainText('Checked in on 1 of the last 30 days.');
    const mood = history.getByTestId('chart').filter({ hasText: 'Mood' });
    await expect(mood.locator('circle')).toHaveCount(1);
    await mood.getByText('Show the values').click();
    await expect(mood.getByRole('row').last()).toContainText('4'); // Good
    const pain = history.getByTestId('chart').filter({ hasText: 'Pain' });
    await expect(pain.getByRole('img')).toHaveAttribute('aria-label', /latest 2 out of 10/);
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page, history);
      await expectNoAxeViolations(page);
    });
  });
});

test.describe('a caregiver', () => {
  test.use({ viewport: VIEWPORTS[0], caregiverPermissions: ['ReadMedicalHistory'] });

  test('a caregiver with Read Medical History sees the patient’s check-in, with nothing to answer', async ({
    page,
    patient,
    caregiver,
    request,
  }) => {
    const answered = await request.post('/api/interactions/respond', {
      headers: bearer(patient.token),
      data: { day: deviceToday(), question_id: 'mood', answer: 'not_so_good' },
    });
    expect(answered.ok(), await answered.text()).toBe(true);

    await signIn(page, caregiver);
    await expect(card(page)).toContainText('The patient has started today’s check-in.');
    await expect(card(page).getByTestId('check-in-answers')).toContainText('Not so good');
    await expect(card(page).getByRole('button')).toHaveCount(0);
    await expectNoAxeViolations(page);
  });
});
