import type { Browser, Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  serverAppointments,
  signIn,
  type Account,
  WITHOUT_SERVICE_WORKER,
} from './support';

// Online screens only: without the service worker (support.ts: WITHOUT_SERVICE_WORKER).
test.use(WITHOUT_SERVICE_WORKER);

// An appointment happens where it happens (src/domain/README.md, "Dates and times shown"): a patient in
// New York books a 10:15 visit; their daughter's phone in Los Angeles reads it as 10:15 AM ET, not 07:15,
// on Home and on the appointments screen, and a viewer whose locale reads 24-hour time sees 10:15.

const NEW_YORK = 'America/New_York';
// A July day next year: no test day is ever after it, and New York is on EDT (GMT-4) then.
const DAY = DateTime.now().plus({ years: 1 }).set({ month: 7, day: 10 });
const DATE_SHOWN = DAY.setLocale('en-US').toFormat('ccc, LLL dd, yyyy');
const TITLE = 'Cardiology check-up';

async function deviceIn(browser: Browser, timezoneId: string, locale: string, account: Account) {
  const context = await browser.newContext({ timezoneId, locale });
  const page = await context.newPage();
  await signIn(page, account);
  return { context, page };
}

const when = (page: Page) => page.getByTestId('appointment-when');

test('a 10:15 visit in New York reads 10:15 AM ET in Los Angeles, and 10:15 on a 24-hour clock', async ({
  browser,
  request,
  patient,
  caregiver,
}) => {
  // The patient, in New York, adds the visit: the zone offered is theirs.
  const home = await deviceIn(browser, NEW_YORK, 'en-US', patient);
  await home.page.getByRole('link', { name: 'Appointments' }).first().click();
  await home.page.getByRole('button', { name: 'New appointment' }).click();
  const form = home.page.getByRole('form', { name: 'New appointment' });
  await expect(form.getByRole('combobox', { name: 'Time zone' })).toHaveValue(NEW_YORK);
  await form.getByRole('textbox', { name: 'Title' }).fill(TITLE);
  await form.getByLabel('Date and time').fill(`${DAY.toISODate()}T10:15`);
  await form.getByRole('button', { name: 'Add appointment' }).click();
  // Their own clock reads the same time: no zone named.
  await expect(when(home.page)).toHaveText(`${DATE_SHOWN}, 10:15 AM`);
  await expect
    .poll(async () => (await serverAppointments(home.page, request)).map((row) => row.time_zone))
    .toEqual([NEW_YORK]);
  await home.context.close();

  // The caregiver, in Los Angeles: Home's card and the appointments screen say 10:15 AM ET.
  const away = await deviceIn(browser, 'America/Los_Angeles', 'en-US', caregiver);
  const next = away.page.getByTestId('home-appointments');
  await expect(next).toContainText(TITLE);
  await expect(next).toContainText(`${DATE_SHOWN}, 10:15 AM ET`);
  await atEachViewport(away.page, async () => {
    await expect(next).toContainText('10:15 AM ET');
    await expectNoHorizontalOverflow(away.page, next);
    await expectNoAxeViolations(away.page);
  });
  await away.page.goto('/caregiver/appointments');
  await expect(when(away.page)).toHaveText(`${DATE_SHOWN}, 10:15 AM ET`);
  await atEachViewport(away.page, async () => {
    await expect(when(away.page)).toBeVisible();
    await expectNoHorizontalOverflow(away.page, away.page.locator('[data-appointment-id]'));
    await expectNoAxeViolations(away.page);
  });
  await away.context.close();

  // A viewer whose locale reads the time on a 24-hour clock (en-GB), in London: 10:15, its zone named.
  const london = await deviceIn(browser, 'Europe/London', 'en-GB', caregiver);
  await expect(london.page.getByTestId('home-appointments')).toContainText(`${DATE_SHOWN}, 10:15 GMT-4`);
  await london.page.goto('/caregiver/appointments');
  await expect(when(london.page)).toHaveText(`${DATE_SHOWN}, 10:15 GMT-4`);
  await london.context.close();
});
