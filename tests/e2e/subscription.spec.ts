import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  PASSWORD,
  acceptBetaPolicyIfAsked,
  atEachViewport,
  createVerifiedUser,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  latestMailTo,
  menuEntry,
  signInThroughUi,
  toastOpacities,
  uniqueEmail,
  verificationPath,
  VIEWPORTS,
  waitForServiceWorker,
  toastsOf,
} from './support';

// /subscription, the login's subscription modal, the server's test-mode checkout and card page, and
// /billing/success and /billing/cancel: a patient without a plan is asked for one at sign-in and takes Family
// Plus through the checkout; a Free patient upgrades to the yearly plan (backing out of the checkout once); a
// trial is cancelled (it ends when the trial does, nothing charged) and resumed; a plan moves monthly ->
// yearly -> Free and back, each change said before it is confirmed; the card is changed on the test card
// page; cancelling Free turns every card to Renew; offline the saved plan shows and changes say they need a connection; a
// corporate sign-up link names its plan and the first sign-in has it chosen. Every state: axe, no sideways
// scrolling, 44 px targets, at 390 x 844 and 1280 x 800 (each journey runs once, on a phone).

const TEXT = {
  currentPlan: 'Current Plan',
  upgraded: 'Subscription upgraded successfully',
  changed: 'Subscription changed successfully',
  canceled: 'Subscription canceled successfully',
  confirmCancel: 'Are you sure you want to cancel your subscription? This action cannot be undone.',
  needsConnection: 'Changing your plan needs a connection. What you see was saved on this device.',
};

/** At each size: no sideways scrolling, 44 px targets in the page (links inside a sentence aside), and axe. */
async function checkScreen(page: Page, ...boxes: Locator[]) {
  await atEachViewport(page, async () => {
    await expectNoHorizontalOverflow(page, ...boxes);
    await expectTapTargets(page.getByRole('main').locator('button:visible, a:visible:not(p a)'));
    await expectNoAxeViolations(page);
  });
}

const planCard = (page: Page, id: string) => page.getByTestId(`plan-${id}`);

async function openSubscription(page: Page) {
  await (await menuEntry(page, 'Subscription')).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription Plans' })).toBeVisible();
  await expect(planCard(page, 'free')).toBeVisible();
}

/** The server's test-mode checkout: the test card, and pay (or start the trial). */
async function payAtTestCheckout(page: Page) {
  await page.waitForURL(/\/api\/stripe\/test-checkout\//);
  await expect(page.getByText('Test mode').first()).toBeVisible();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Pat Payer');
  await page.getByRole('button', { name: /^(Pay and subscribe|Start free trial)$/ }).click();
  await page.waitForURL(/\/billing\/success\?session_id=cs_test_/);
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription confirmed' })).toBeVisible();
}

/** Fills the sign-in form and presses Sign in (what follows depends on the account). */
async function submitSignIn(page: Page, email: string) {
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

/** In the confirmation of a change of plan: what it says, then confirm it (Confirm change, or checkout). */
async function confirmChange(page: Page, title: string, says: RegExp, confirm: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog.getByText(says)).toBeVisible();
  await atEachViewport(page, async () => {
    await expectNoHorizontalOverflow(page, dialog);
    await expectTapTargets(dialog.getByRole('button'));
    await expectNoAxeViolations(page);
  });
  await dialog.getByRole('button', { name: confirm }).click();
}

const DATE = String.raw`\w{3}, \w{3} \d{2}, \d{4}`;

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test('sign-in without a plan opens the modal; Family Plus through the test checkout; Current Plan', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const patient = await createVerifiedUser(request, 'Patient', 'Nina Noplan', { freePlan: false });
    await submitSignIn(page, patient.email);
    const modal = page.getByRole('dialog', { name: 'Choose a plan' });
    await expect(modal.getByRole('radio', { name: 'Free' })).toBeChecked();
    await expect(modal.getByText('Choose a plan to start using Kincare.')).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page, modal);
      await expectTapTargets(modal.locator('button:visible, label:visible'));
      await expectNoAxeViolations(page);
    });

    await modal.getByRole('radio', { name: 'Family Plus', exact: true }).check();
    await modal.getByRole('button', { name: 'Continue to checkout' }).click();
    await payAtTestCheckout(page);
    await checkScreen(page);
    // Not signed in yet: the page sends the person to sign in, which now goes straight in.
    await page.getByRole('link', { name: 'Go to sign in' }).click();
    await signInThroughUi(page, patient.email);

    await openSubscription(page);
    const plus = planCard(page, 'plus-monthly');
    await expect(plus.getByText(TEXT.currentPlan)).toBeVisible();
    await expect(plus.getByText(/^Trialing until \w{3}, \w{3} \d{2}, \d{4}$/)).toBeVisible();
    await expect(planCard(page, 'free').getByText(TEXT.currentPlan)).toHaveCount(0);
    await checkScreen(page, plus);

    await page.getByRole('tab', { name: 'Manage Subscription' }).click();
    const details = page.getByRole('region', { name: 'Your subscription' });
    await expect(details).toContainText('Family Plus');
    await expect(details).toContainText('Trialing');
    await checkScreen(page, details);
  });

  test('a Free patient upgrades month to year through the checkout (after backing out once)', async ({
    patientPage: page,
  }) => {
    test.setTimeout(120_000);
    await openSubscription(page);
    await expect(planCard(page, 'free').getByText(TEXT.currentPlan)).toBeVisible();
    // From Free, each paid plan is an upgrade of its own (no button that always sells the yearly plan).
    await expect(planCard(page, 'plus-monthly').getByRole('button')).toHaveText(['Upgrade']);
    await checkScreen(page, planCard(page, 'plus-yearly'));

    const upgrade = planCard(page, 'plus-yearly').getByRole('button', { name: 'Upgrade' });
    await upgrade.click();
    await confirmChange(
      page,
      'Upgrade to Family Plus Yearly',
      /^You go to the checkout page to give a card\. Family Plus Yearly costs \$69\.90 \/ year after a 14-day free trial\.$/,
      'Continue to checkout',
    );
    await page.waitForURL(/\/api\/stripe\/test-checkout\//);
    await page.getByRole('link', { name: 'Cancel and go back' }).click();
    await page.waitForURL(/\/billing\/cancel/);
    await expect(page.getByRole('heading', { level: 1, name: 'Checkout canceled' })).toBeVisible();
    await checkScreen(page);
    await page.getByRole('link', { name: 'Back to Subscription' }).click();
    await expect(planCard(page, 'free').getByText(TEXT.currentPlan)).toBeVisible();

    await upgrade.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Continue to checkout' }).click();
    await payAtTestCheckout(page);
    await checkScreen(page);
    await page.getByRole('link', { name: 'Go to Subscription' }).click();
    const yearly = planCard(page, 'plus-yearly');
    await expect(yearly.getByText(TEXT.currentPlan)).toBeVisible();
    await expect(planCard(page, 'free').getByText(TEXT.currentPlan)).toHaveCount(0);
    await expect(yearly.getByRole('button', { name: 'Upgrade' })).toHaveCount(0);
    await checkScreen(page, yearly);
  });

  test('a trial cancelled says when it ends and that nothing is charged, and Resume Plan keeps it', async ({
    patientPage: page,
  }) => {
    test.setTimeout(150_000);
    await openSubscription(page);
    await planCard(page, 'plus-monthly').getByRole('button', { name: 'Upgrade' }).click();
    await confirmChange(page, 'Upgrade to Family Plus', /14-day free trial\.$/, 'Continue to checkout');
    await payAtTestCheckout(page);
    await page.getByRole('link', { name: 'Go to Subscription' }).click();
    await expect(planCard(page, 'plus-monthly').getByText(TEXT.currentPlan)).toBeVisible();

    await page.getByRole('tab', { name: 'Manage Subscription' }).click();
    const details = page.getByRole('region', { name: 'Your subscription' });
    await expect(details).toContainText('Trialing');
    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Subscription' });
    await expect(
      dialog.getByText(new RegExp(`^Your free trial ends on ${DATE}; you keep Family Plus until then\\.$`)),
    ).toBeVisible();
    await expect(dialog.getByText('Nothing will be charged.')).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page, dialog);
      await expectTapTargets(dialog.getByRole('button'));
      await expectNoAxeViolations(page);
    });
    await dialog.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect(page.getByText(TEXT.canceled)).toBeVisible();
    const ending = page.getByTestId('subscription-ending');
    await expect(ending).toHaveText(
      new RegExp(`^Canceled: your free trial ends on ${DATE} and nothing will be charged\\.$`),
    );
    await expect(details).toContainText('Does not renew');
    await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
    await checkScreen(page, details);
    // Reloaded: the same, from the server.
    await page.reload();
    await page.getByRole('tab', { name: 'Manage Subscription' }).click();
    await expect(ending).toBeVisible();

    await page.getByRole('button', { name: 'Resume Plan' }).click();
    await expect(page.getByText('Subscription resumed successfully')).toBeVisible();
    await expect(ending).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toBeVisible();
  });

  test('monthly to yearly to Free and back, each said first; then the card is changed on the test card page', async ({
    patientPage: page,
  }) => {
    test.setTimeout(180_000);
    await openSubscription(page);
    await planCard(page, 'plus-monthly').getByRole('button', { name: 'Upgrade' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Continue to checkout' }).click();
    await payAtTestCheckout(page);
    await page.getByRole('link', { name: 'Go to Subscription' }).click();
    const [free, monthly, yearly] = [
      planCard(page, 'free'),
      planCard(page, 'plus-monthly'),
      planCard(page, 'plus-yearly'),
    ];
    await expect(monthly.getByText(TEXT.currentPlan)).toBeVisible();

    // Monthly to yearly, in the trial: at once, the trial keeps its end.
    await yearly.getByRole('button', { name: 'Switch plan' }).click();
    await confirmChange(
      page,
      'Switch to Family Plus Yearly',
      new RegExp(`^Changes now\\. Your free trial still ends on ${DATE}\\.$`),
      'Confirm change',
    );
    await expect(page.getByText(TEXT.changed)).toBeVisible();
    await expect(yearly.getByText(TEXT.currentPlan)).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Yearly to Free: when the trial ends; nothing is charged.
    await free.getByRole('button', { name: 'Switch plan' }).click();
    await expect(
      page.getByRole('dialog').getByText('Then you are on Free, at no cost. Nothing will be charged.'),
    ).toBeVisible();
    await confirmChange(
      page,
      'Switch to Free',
      new RegExp(
        `^Changes when your free trial ends, on ${DATE}\\. Until then you keep Family Plus Yearly\\.$`,
      ),
      'Confirm change',
    );
    await expect(free.getByText(new RegExp(`^Starts on ${DATE}$`))).toBeVisible();
    await expect(yearly.getByText(TEXT.currentPlan)).toBeVisible();
    await checkScreen(page, free);

    // And back to monthly: at once, and the move to Free is off.
    await monthly.getByRole('button', { name: 'Switch plan' }).click();
    await confirmChange(page, 'Switch to Family Plus', /^Changes now\./, 'Confirm change');
    await expect(monthly.getByText(TEXT.currentPlan)).toBeVisible();
    await expect(free.getByText(/^Starts on /)).toHaveCount(0);

    // The card: the test card page shows the card on file, checks what is typed, and keeps the new card.
    await page.getByRole('tab', { name: 'Manage Subscription' }).click();
    const details = page.getByRole('region', { name: 'Your subscription' });
    await expect(details).toContainText('Visa •••• 4242, expires 12/34');
    await checkScreen(page, details);
    await page.getByRole('button', { name: 'Update card' }).click();
    await page.waitForURL(/\/api\/stripe\/test-billing\/bps_test_/);
    await expect(page.getByRole('heading', { level: 1, name: 'Update your card' })).toBeVisible();
    await expect(page.getByText('Card on file: Visa •••• 4242, expires 12/34')).toBeVisible();
    await page.getByLabel('Card number').fill('5555 5555 5555 4444');
    await page.getByLabel('Expiry (MM/YY)').fill('08/31');
    await page.getByLabel('CVC').fill('12');
    await page.getByLabel('Name on card').fill('Pat Payer');
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByRole('alert')).toHaveText('Enter the 3-digit security code.');
    await expect(page.getByLabel('Name on card')).toHaveValue('Pat Payer');
    await checkScreen(page);
    await page.getByLabel('Card number').fill('5555 5555 5555 4444');
    await page.getByLabel('Expiry (MM/YY)').fill('08/31');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.waitForURL(/\/subscription$/);
    await page.getByRole('tab', { name: 'Manage Subscription' }).click();
    await expect(details).toContainText('Mastercard •••• 4444, expires 08/31');
  });

  test('cancel asks first, then every card offers Renew; Renew Free is back at once', async ({
    patientPage: page,
  }) => {
    test.setTimeout(120_000);
    await openSubscription(page);
    await page.getByRole('tab', { name: 'Manage Subscription' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Manage Subscription' })).toBeVisible();
    const details = page.getByRole('region', { name: 'Your subscription' });
    await expect(details).toContainText('Active');
    await checkScreen(page, details);

    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Subscription' });
    await expect(dialog.getByText(TEXT.confirmCancel)).toBeVisible();
    await atEachViewport(page, async () => {
      await expectNoHorizontalOverflow(page, dialog);
      await expectTapTargets(dialog.getByRole('button'));
      await expectNoAxeViolations(page);
    });
    await dialog.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect(page.getByText(TEXT.canceled)).toBeVisible();
    await expect(details).toContainText('Canceled');
    await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
    await checkScreen(page, details);

    await page.getByRole('tab', { name: 'Plans' }).click();
    for (const id of ['free', 'plus-monthly', 'plus-yearly']) {
      await expect(planCard(page, id).getByRole('button', { name: 'Renew' })).toBeVisible();
      await expect(planCard(page, id).getByText(TEXT.currentPlan)).toHaveCount(0);
    }
    await checkScreen(page);
    await planCard(page, 'free').getByRole('button', { name: 'Renew' }).click();
    await expect(planCard(page, 'free').getByText(TEXT.currentPlan)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Renew' })).toHaveCount(0);
  });

  test('a corporate sign-up link names its plan, and the first sign-in has it chosen', async ({ page }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail('corporate');
    await page.goto('/signup/plus-yearly');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign up for Kincare' })).toBeVisible();
    await expect(page.getByTestId('chosen-plan')).toContainText('Family Plus Yearly');
    await checkScreen(page);
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Full name').fill('Corin Corporate');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByLabel('Zip code').fill('10001');
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(
      page.getByText('Check your e-mail: we sent a message to this address with the next step.'),
    ).toBeVisible();
    await page.goto(verificationPath(await latestMailTo(email)));
    await expect(page.getByRole('status')).toContainText('You can sign in now');

    await submitSignIn(page, email);
    const modal = page.getByRole('dialog', { name: 'Choose a plan' });
    await expect(modal.getByRole('radio', { name: 'Family Plus Yearly' })).toBeChecked();
    // Not now: the form says why the sign-in stopped; a Free choice then signs in.
    await modal.getByRole('button', { name: 'Not now' }).click();
    await expect(page.getByRole('form', { name: 'Sign in' }).getByRole('alert')).toHaveText(
      'Choose a plan to start using Kincare.',
    );
    await page.getByRole('form', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click();
    await modal.getByRole('radio', { name: 'Free' }).check();
    await modal.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Logged in successfully')).toBeVisible();
    await acceptBetaPolicyIfAsked(page);
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('at 390x844', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test('offline: the saved plan shows, and a change says it needs a connection', async ({
    patientPage: page,
    context,
  }) => {
    test.setTimeout(120_000);
    await waitForServiceWorker(page);
    await openSubscription(page);
    await expect(planCard(page, 'free').getByText(TEXT.currentPlan)).toBeVisible();

    await context.setOffline(true);
    // Opened again with no connection: from the service worker and the device's copy.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Subscription Plans' })).toBeVisible();
    await expect(planCard(page, 'free').getByText(TEXT.currentPlan)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: TEXT.needsConnection })).toBeVisible();
    await planCard(page, 'plus-yearly').getByRole('button', { name: 'Upgrade' }).click();
    await expect(page.getByText(TEXT.needsConnection)).toHaveCount(2); // the note and the toast
    await expect(page).toHaveURL(/\/subscription$/);
    await checkScreen(page);

    // The error belongs to this page: going to another closes it. The page's clock stands still from
    // here, so the toast's own 2 s cannot be what closes it.
    await page.clock.install();
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await planCard(page, 'plus-yearly').getByRole('button', { name: 'Upgrade' }).click();
    const toast = toastsOf(page).filter({ hasText: TEXT.needsConnection });
    await expect(toast).toBeVisible();
    await page.getByTestId('tab-bar').getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    // Closing fades it out (and takes it away a second later, on the stopped clock: never here).
    await expect.poll(() => toastOpacities(toast)).toEqual([0]);
    await context.setOffline(false);
  });
});
