import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createAccount, expectNoAxeViolations, signIn } from './support';

// Installing the app: Chromium's `beforeinstallprompt` cannot be had from a test server (it needs a
// browser that judges the site installable and engaged), so the test dispatches one as Chromium does,
// with prompt() and userChoice, and checks what the person sees and what the app calls. Safari on an
// iPhone is a user agent; the installed app is `display-mode: standalone`, put in place before the app
// loads.

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';

type Window = typeof globalThis & { promptCalls?: number; installEventPrevented?: boolean };

/** Fires a synthetic beforeinstallprompt whose prompt() counts its calls and whose choice is `outcome`. */
async function offerInstall(page: Page, outcome: 'accepted' | 'dismissed') {
  await page.evaluate((choice) => {
    const target = window as Window;
    target.promptCalls = 0;
    const event = new Event('beforeinstallprompt', { cancelable: true });
    Object.assign(event, {
      prompt: () => {
        target.promptCalls = (target.promptCalls ?? 0) + 1;
        return Promise.resolve();
      },
      userChoice: Promise.resolve({ outcome: choice, platform: 'web' }),
    });
    window.dispatchEvent(event);
    target.installEventPrevented = event.defaultPrevented;
  }, outcome);
}

const promptCalls = (page: Page) => page.evaluate(() => (window as Window).promptCalls ?? 0);

async function signInInstaller(page: Page, request: APIRequestContext) {
  await signIn(page, await createAccount(request, 'Patient', 'Ian Installer'));
  await expect(page.getByTestId('greeting')).toBeVisible();
}

test.describe('on a computer', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('no install button until the browser offers; then one that opens its dialog, once', async ({
    page,
    request,
  }) => {
    await signInInstaller(page, request);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const install = page.getByRole('button', { name: 'Install app' });
    await expect(nav).toBeVisible();
    await expect(install).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add to Home Screen' })).toHaveCount(0);

    await offerInstall(page, 'dismissed');
    // The browser's own mini-infobar is held back: the app offers installation where people look.
    expect(await page.evaluate(() => (window as Window).installEventPrevented)).toBe(true);
    await expect(install).toBeVisible();
    await expectNoAxeViolations(page);
    await install.click();
    await expect.poll(() => promptCalls(page)).toBe(1);
    // The event is spent: the button goes until the browser offers again.
    await expect(install).toHaveCount(0);

    await offerInstall(page, 'accepted');
    await expect(install).toBeVisible();
    await install.click();
    await expect.poll(() => promptCalls(page)).toBe(1);
    await expect(install).toHaveCount(0);
  });

  test('nothing is offered in the installed app', async ({ page, request }) => {
    await page.addInitScript(() => {
      const original = window.matchMedia.bind(window);
      window.matchMedia = (query: string) =>
        query.includes('display-mode: standalone')
          ? ({ ...original(query), matches: true, media: query } as MediaQueryList)
          : original(query);
    });
    await signInInstaller(page, request);
    await offerInstall(page, 'dismissed');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Install app' })).toHaveCount(0);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the More sheet holds the install button when the browser offers', async ({ page, request }) => {
    await signInInstaller(page, request);
    await offerInstall(page, 'dismissed');
    await page.getByRole('button', { name: 'More' }).click();
    const sheet = page.getByTestId('more-sheet');
    const install = sheet.getByRole('button', { name: 'Install app' });
    await expect(install).toBeVisible();
    const box = await install.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    await install.click();
    await expect.poll(() => promptCalls(page)).toBe(1);
  });
});

test.describe('in Safari on an iPhone', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    userAgent: IPHONE_SAFARI,
  });

  test('the More sheet explains Share, then Add to Home Screen', async ({ page, request }) => {
    await signInInstaller(page, request);
    await page.getByRole('button', { name: 'More' }).click();
    const sheet = page.getByTestId('more-sheet');
    const hintButton = sheet.getByRole('button', { name: 'Add to Home Screen' });
    await expect(hintButton).toBeVisible();
    await expect(hintButton).toHaveAttribute('aria-expanded', 'false');
    await expect(sheet.getByRole('button', { name: 'Install app' })).toHaveCount(0);
    await hintButton.click();
    await expect(hintButton).toHaveAttribute('aria-expanded', 'true');
    await expect(sheet.getByText(/tap the Share button.*then .Add to Home Screen./)).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
