import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  VIEWPORTS,
  apiToken,
  createVerifiedUser,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  signInThroughUi,
  storedToken,
} from './support';

// Home (issue 8, point 3): the next appointments and the sync state from this device, the cards later
// features fill (each saying what to do, with a link to a screen that exists), honest "coming soon" pages
// for the menu entries not built yet, and an 'Unauthorized Access' page with a way back.

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

async function checkLayout(page: Page) {
  await expectNoHorizontalOverflow(page, main(page));
  await expectTapTargets(mainTargets(page));
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} x ${viewport.height}`, () => {
    test.use({ viewport });

    test('a new patient’s Home: every card empty, each saying what to do and leading to a screen that exists', async ({
      page,
      request,
    }) => {
      const { email } = await createVerifiedUser(request, 'Patient', 'Hana Home');
      await signInThroughUi(page, email);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

      const next = card(page, 'appointments');
      await expect(next.getByRole('heading', { name: 'Next appointments' })).toBeVisible();
      await expect(next).toContainText('No upcoming appointments.');
      await expect(card(page, 'sync')).toContainText('Every change is saved on the server.');
      await expect(page.getByTestId('home-sync-state')).toHaveText('Online');
      for (const [id, heading] of [
        ['medicines', 'Today’s medicines'],
        ['results', 'Latest results'],
        ['check-in', 'Check-in'],
      ] as const) {
        await expect(card(page, id).getByRole('heading', { name: heading })).toBeVisible();
      }
      await checkLayout(page);

      // Each empty card's link opens a real screen, and that screen leads back home.
      const links = [
        { id: 'appointments', link: 'Add an appointment', url: /\/appointments$/, heading: 'Appointments' },
        { id: 'medicines', link: 'Add a prescription', url: /\/prescriptions$/, heading: 'Prescriptions' },
        { id: 'results', link: 'Go to Lab Reports', url: /\/lab-report$/, heading: 'Lab Report History' },
        {
          id: 'check-in',
          link: 'Go to Medical History',
          url: /\/medical-history$/,
          heading: 'Medical History',
        },
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
        } else if (id === 'results') {
          await expect(main(page).getByText('No reports found.')).toBeVisible();
          await expect(main(page).getByRole('button', { name: 'Upload a report' })).toBeVisible();
          await page.goBack();
        } else {
          // An honest "coming soon": what it will do, that nothing is kept there yet, and the way back.
          await expect(main(page)).toContainText('Coming soon');
          await expect(main(page)).toContainText('What this will do');
          await expect(main(page)).toContainText('nothing is stored here');
          await main(page).getByRole('link', { name: 'Back to Dashboard' }).click();
        }
        await expect(page).toHaveURL(/\/dashboard$/);
      }
    });

    test('a patient’s Home with appointments and unsent changes: the next three, soonest first, and the sync state', async ({
      page,
      context,
      request,
    }) => {
      const { email } = await createVerifiedUser(request, 'Patient', 'Fiona Filled');
      await signInThroughUi(page, email);
      const token = (await storedToken(page)) ?? (await apiToken(request, email));
      const profile = await (
        await request.get('/api/auth/profile', { headers: { Authorization: `Bearer ${token}` } })
      ).json();
      const patientId = profile.data.patient_id as string;
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
      await page.reload(); // the app syncs on start

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
      await checkLayout(page);

      // A change made offline waits on this device, and Home says so; back online it is sent.
      await next.getByRole('link', { name: 'See all appointments' }).click();
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
      await expectNoHorizontalOverflow(page, main(page));
      await expectNoAxeViolations(page);

      await context.setOffline(false);
      await card(page, 'sync').getByRole('button', { name: 'Sync now' }).click();
      await expect(page.getByTestId('home-sync-state')).toHaveText('Online');
      await expect(card(page, 'sync')).toContainText('Every change is saved on the server.');
    });

    test('a caregiver’s Home without a selected patient says what to do; its links lead somewhere real', async ({
      page,
      request,
    }) => {
      const { email } = await createVerifiedUser(request, 'Caregiver', 'Cora Carer');
      await signInThroughUi(page, email);
      await expect(page).toHaveURL(/\/caregiver\/dashboard$/);
      await expect(page.getByTestId('home-no-patient')).toContainText('No patient is selected.');
      await expect(card(page, 'appointments')).toContainText(
        'Select a patient to see their next appointments.',
      );
      await checkLayout(page);
      await page.getByTestId('home-no-patient').getByRole('link', { name: 'Go to Patients' }).click();
      await expect(page).toHaveURL(/\/caregiver\/patients$/);
      await expect(page.getByRole('heading', { name: 'Patients', level: 1 })).toBeVisible();
      await expect(main(page)).not.toContainText('Coming soon');
      await expect(main(page)).toContainText('No patients yet.');
      // Nothing to tap yet (the patient's invitation brings the first request): only layout and contrast.
      await expectNoHorizontalOverflow(page, main(page));
      await expectNoAxeViolations(page);
    });

    test('every menu entry not built yet is an honest "coming soon" page, and Unauthorized Access offers a way back', async ({
      page,
      request,
    }) => {
      // Signed out: the spec's text, why, and sign-in.
      await page.goto('/unauthorized');
      await expect(page.getByRole('heading', { name: 'Unauthorized Access' })).toBeVisible();
      await expect(main(page)).toContainText('This page needs you to be signed in.');
      await checkLayout(page);
      await main(page).getByRole('link', { name: 'Go to sign in' }).click();
      await expect(page).toHaveURL(/\/login$/);

      const { email } = await createVerifiedUser(request, 'Patient', 'Pia Pages');
      await signInThroughUi(page, email);
      const sections: [string, string][] = [['/medical-history', 'Medical History']];
      for (const [path, title] of sections) {
        await page.goto(path);
        await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
        await expect(main(page)).toContainText('Coming soon');
        await expect(main(page).getByRole('listitem').first()).toBeVisible(); // what it will do
        await expect(main(page).getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute(
          'href',
          '/dashboard',
        );
      }
      await checkLayout(page);

      // A patient on a caregiver page: why, and the way back to their own home.
      await page.goto('/caregiver/dashboard');
      await expect(page).toHaveURL(/\/unauthorized$/);
      await expect(page.getByRole('heading', { name: 'Unauthorized Access' })).toBeVisible();
      await expect(main(page)).toContainText('This page is for another kind of account.');
      await checkLayout(page);
      await main(page).getByRole('link', { name: 'Back to Dashboard' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
    });
  });
}
