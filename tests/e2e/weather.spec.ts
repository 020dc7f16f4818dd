import { createServer, type Server } from 'node:http';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  VIEWPORTS,
  atEachViewport,
  createAccount,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  signIn,
  waitForServiceWorker,
} from './support';

// The header's weather, in the browser against the real server, whose WEATHER_API_URL
// (playwright.config.ts: the app's port + 1) is a local server of this spec that answers like Open-Meteo.
// The position is Playwright's geolocation; the time of day the page's fixed clock. The accounts are made
// with zip 10001: the place is New York.

/** What the fake answers, by the latitude the server sends (rounded to 2 decimals). */
const FORECASTS: Record<string, { temperature_2m: number; weather_code: number } | 'fail'> = {
  '40.71': { temperature_2m: 12.4, weather_code: 0 }, // clear: a sun by day, a moon at night
  '51.51': { temperature_2m: 9.6, weather_code: 3 }, // overcast
  '-33.87': 'fail',
};
const CLEAR = { latitude: 40.712776, longitude: -74.005974 };
const OVERCAST = { latitude: 51.5072, longitude: -0.1276 };
const FAILING = { latitude: -33.8688, longitude: 151.2093 };

// The fake listens on a fixed port: this file's tests run in order, in one worker.
test.describe.configure({ mode: 'default' });

let fake: Server;
const asked: URLSearchParams[] = [];

test.beforeAll(async () => {
  const port = Number(new URL(process.env.E2E_BASE_URL ?? 'http://localhost:8181').port) + 1;
  fake = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://fake').searchParams;
    asked.push(query);
    const forecast = FORECASTS[query.get('latitude') ?? ''];
    if (!forecast || forecast === 'fail') {
      response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":true}');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ current: { time: '2026-11-24T14:00', interval: 900, is_day: 1, ...forecast } }));
  });
  await new Promise<void>((resolve) => fake.listen(port, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  fake.closeAllConnections();
  await new Promise<void>((resolve) => fake.close(() => resolve()));
});

/** Today at this hour, on the page's clock (the browser's zone is the machine's, as is this process's). */
function todayAt(hour: number, minute = 0): Date {
  const date = new Date();
  date.setHours(hour, minute, 0, 0);
  return date;
}

const header = (page: Page) => page.locator('header');
const chip = (page: Page) => page.getByTestId('weather');
const toasts = (page: Page) => page.locator('[data-rht-toaster] [role="status"]');

/**
 * The toasts shown since the page opened, once anything a failure would load has loaded (no request for
 * half a second) and React has drawn what followed it (two frames later).
 */
async function toastsShown(page: Page): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  return page.evaluate(async () => {
    for (let frame = 0; frame < 2; frame += 1)
      await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    return (window as unknown as { shownToasts: string[] }).shownToasts;
  });
}

/** A signed-in patient's page in a context of its own, with the position given (or none allowed). */
async function signedInPage(
  browser: Browser,
  options: {
    position?: { latitude: number; longitude: number };
    viewport?: { width: number; height: number };
    at?: Date;
  },
) {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.position ? { geolocation: options.position, permissions: ['geolocation'] } : {}),
  });
  // Every toast the page shows, recorded as it appears: a toast is loaded and shown a moment after the
  // failure it reports, and leaves after 2 s, so looking once could miss it either way.
  await context.addInitScript(() => {
    const shown: string[] = [];
    Object.assign(window, { shownToasts: shown });
    new MutationObserver((changes) => {
      for (const change of changes)
        for (const node of change.addedNodes)
          if (node instanceof Element)
            for (const toast of [node, ...node.querySelectorAll('[role="status"]')])
              if (toast.matches('[data-rht-toaster] [role="status"]'))
                shown.push((toast.textContent ?? '').trim());
    }).observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  /** The status of every answer of GET /api/weather the page got. */
  const weatherAnswers: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/weather') weatherAnswers.push(response.status());
  });
  if (options.at) await page.clock.setFixedTime(options.at);
  await signIn(page, await createAccount(context.request, 'Patient', 'Wendy Weather'));
  return { context, page, warnings, weatherAnswers };
}

test('by day the header shows the sun, C and F: on one line on a phone, with the place on a laptop', async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, {
    position: CLEAR,
    viewport: VIEWPORTS[0],
    at: todayAt(14),
  });
  await expect(chip(page)).toBeVisible();
  await expect(chip(page)).toContainText('12°C / 54°F');
  await expect(chip(page).getByRole('img', { name: 'Clear' })).toBeVisible();
  await expect(chip(page)).toHaveAttribute('data-icon', 'Sun');
  const place = chip(page).getByText('New York');
  await atEachViewport(page, async (viewport) => {
    if (viewport.width < 768) {
      await expect(place).toBeHidden();
      // One line: the weather sits beside the greeting and the avatar, not under them.
      const greeting = await page.getByTestId('greeting').boundingBox();
      const weather = await chip(page).boundingBox();
      const avatar = await page.getByRole('link', { name: 'Profile' }).boundingBox();
      for (const box of [weather, avatar]) {
        expect(
          box && greeting && Math.abs(box.y + box.height / 2 - (greeting.y + greeting.height / 2)),
        ).toBeLessThan(12);
      }
      // Beside the weather, neither the greeting nor the first name is cut short.
      const cut = await page
        .getByTestId('greeting')
        .locator('span:visible')
        .evaluateAll((spans) =>
          spans.filter((span) => span.scrollWidth > span.clientWidth).map((span) => span.textContent),
        );
      expect(cut).toEqual([]);
    } else {
      await expect(place).toBeVisible();
    }
    await expectNoHorizontalOverflow(page, header(page), chip(page));
    await expectTapTargets(header(page).locator('a:visible, button:visible, select:visible'));
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'light' });
  });
  // The server asked the service with the position to 2 decimals, never more.
  expect(
    asked.some((query) => query.get('latitude') === '40.71' && query.get('longitude') === '-74.01'),
  ).toBe(true);
  expect(asked.every((query) => !/\.\d{3}/.test(`${query.get('latitude')},${query.get('longitude')}`))).toBe(
    true,
  );
  await context.close();
});

test('at night the sun becomes a moon, and an overcast sky stays a cloud', async ({ browser }) => {
  const night = await signedInPage(browser, { position: CLEAR, at: todayAt(21, 30) });
  await expect(chip(night.page)).toHaveAttribute('data-icon', 'Moon');
  await expect(chip(night.page).getByRole('img', { name: 'Clear' })).toBeVisible();
  await expect(chip(night.page).locator('svg.lucide-moon')).toBeVisible();
  await expect(night.page.getByTestId('greeting')).toContainText('Good Evening');
  await night.context.close();

  const overcast = await signedInPage(browser, {
    position: OVERCAST,
    at: todayAt(5, 30),
    viewport: VIEWPORTS[0],
  });
  await expect(chip(overcast.page)).toHaveAttribute('data-icon', 'Cloud');
  await expect(chip(overcast.page).getByRole('img', { name: 'Cloudy' })).toBeVisible();
  await expect(chip(overcast.page)).toContainText('10°C / 49°F');
  await overcast.context.close();
});

test('offline, after a reload, the last weather still shows, with when it was read', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, { position: CLEAR, at: todayAt(10) });
  await expect(chip(page)).toContainText('12°C / 54°F');
  await waitForServiceWorker(page);
  await expect(chip(page)).toContainText('12°C / 54°F');
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('greeting')).toContainText('Wendy Weather');
  await expect(chip(page)).toContainText('12°C / 54°F');
  await expect(chip(page)).toContainText('New York');
  await expect(chip(page).getByTestId('weather-read-at')).toContainText('as of 10:00');
  expect(await toastsShown(page)).toEqual([]);
  await expectNoAxeViolations(page);
  await context.setOffline(false);
  await context.close();
});

test('with the position refused there is no weather, no error toast, only a log line', async ({
  browser,
}) => {
  const { context, page, warnings, weatherAnswers } = await signedInPage(browser, { at: todayAt(14) });
  // Not allowed yet: the browser would have to ask, which it does only after the person does something
  // (a tap once the header's weather has loaded and waits for one).
  await page.waitForLoadState('networkidle');
  await page.getByTestId('greeting').click();
  await expect.poll(() => warnings.join('\n')).toContain('Weather not updated');
  expect(weatherAnswers).toEqual([]);
  await expect(chip(page)).toHaveCount(0);
  expect(await toastsShown(page)).toEqual([]);
  await expect(toasts(page)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await context.close();
});

test('when the weather service fails there is no weather, no error toast, only a log line', async ({
  browser,
}) => {
  const { context, page, warnings, weatherAnswers } = await signedInPage(browser, {
    position: FAILING,
    at: todayAt(14),
  });
  await expect.poll(() => weatherAnswers).toContain(502);
  await expect.poll(() => warnings.join('\n')).toContain('the server answered 502');
  await expect(chip(page)).toHaveCount(0);
  expect(await toastsShown(page)).toEqual([]);
  await expect(toasts(page)).toHaveCount(0);
  await context.close();
});
