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
  toastsOf,
} from './support';

// The header's weather, in the browser against the real server, whose WEATHER_API_URL
// (playwright.config.ts: the app's port + 1) is a local server of this spec that answers like Open-Meteo.
// The weather is the profile zip code's, shown on the first screen without asking anyone anything; a person
// with no US zip code (a PIN code) gets 'Show weather', and the browser is asked for the position only after
// they tap it, read why, and choose 'Use my location'. Every page counts the position requests it makes
// (geolocation's getCurrentPosition and watchPosition, wrapped before the app runs). The time of day is the
// page's fixed clock.

/** What the fake answers, by the latitude the server sends (rounded to 2 decimals). */
const FORECASTS: Record<string, { temperature_2m: number; weather_code: number } | 'fail'> = {
  '40.75': { temperature_2m: 12.4, weather_code: 0 }, // zip 10001, New York: clear (a moon at night)
  '47.61': { temperature_2m: 9.6, weather_code: 3 }, // zip 98101, Seattle: overcast
  '25.78': 'fail', // zip 33101, Miami: the service fails
  '40.71': { temperature_2m: 20.2, weather_code: 2 }, // the device's position below: partly cloudy
};
const NEW_YORK = '10001';
const SEATTLE = '98101';
const MIAMI = '33101';
/** An Indian PIN code: no US zip code, so no weather without the position (00000 is a zip of no place). */
const BENGALURU = '560001';
const HERE = { latitude: 40.712776, longitude: -74.005974 };

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

/**
 * A signed-in patient's page in a context of its own: their zip code, a position the browser would give
 * (never allowed unless `allowed`), the viewport and the page's clock.
 */
async function signedInPage(
  browser: Browser,
  options: {
    zip: string;
    position?: { latitude: number; longitude: number };
    allowed?: boolean;
    viewport?: { width: number; height: number };
    at?: Date;
  },
) {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.position ? { geolocation: options.position } : {}),
    ...(options.allowed ? { permissions: ['geolocation'] } : {}),
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
  // Every request for the position, counted before the app can make one.
  await context.addInitScript(() => {
    const requests = { count: 0 };
    Object.assign(window, { positionRequests: requests });
    const geolocation = navigator.geolocation as Geolocation | undefined;
    if (!geolocation) return;
    const current = geolocation.getCurrentPosition.bind(geolocation);
    const watch = geolocation.watchPosition.bind(geolocation);
    geolocation.getCurrentPosition = (...args) => {
      requests.count += 1;
      current(...args);
    };
    geolocation.watchPosition = (...args) => {
      requests.count += 1;
      return watch(...args);
    };
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
  await signIn(page, await createAccount(context.request, 'Patient', 'Wendy Weather', { zip: options.zip }));
  return { context, page, warnings, weatherAnswers };
}

/** How many times this page has asked the browser for the position. */
const positionRequests = (page: Page) =>
  page.evaluate(() => (window as unknown as { positionRequests: { count: number } }).positionRequests.count);

/** What a person does on a first screen: taps somewhere and presses a key (once, the app asked then). */
async function actLikeAPerson(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.getByTestId('greeting').click();
  await page.keyboard.press('Shift');
  await page.waitForLoadState('networkidle');
}

const showWeather = (page: Page) => page.getByRole('button', { name: 'Show weather' });

test('the weather of the profile zip code shows on the first screen, and the location is never asked for', async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, {
    zip: NEW_YORK,
    position: HERE,
    viewport: VIEWPORTS[0],
    at: todayAt(14),
  });
  await expect(chip(page)).toContainText('12°C / 54°F');
  await actLikeAPerson(page);
  await atEachViewport(page, async (viewport) => {
    await expect(chip(page)).toBeVisible();
    await expect(chip(page).getByText('New York')).toBeVisible({ visible: viewport.width >= 768 });
    await expect(showWeather(page)).toHaveCount(0);
    await expectNoHorizontalOverflow(page, header(page), chip(page));
    await expectTapTargets(header(page).locator('a:visible, button:visible, select:visible'));
    await expectNoAxeViolations(page);
  });
  expect(await positionRequests(page)).toBe(0);
  // The server asked for the zip code's place, 10001 at 40.7484, -73.9967, to 2 decimals.
  expect(asked.some((query) => query.get('latitude') === '40.75' && query.get('longitude') === '-74')).toBe(
    true,
  );
  await context.close();
});

test('with no US zip code, the location is asked for only after a tap on Show weather and a sentence of why', async ({
  browser,
}) => {
  const { context, page, weatherAnswers } = await signedInPage(browser, {
    zip: BENGALURU,
    position: HERE,
    viewport: VIEWPORTS[0],
    at: todayAt(14),
  });
  await expect(showWeather(page)).toBeVisible();
  await actLikeAPerson(page);
  const dialog = page.getByRole('dialog', { name: 'Show the weather' });
  await atEachViewport(page, async (viewport) => {
    await expect(showWeather(page)).toBeVisible();
    // On a phone the chip is its icon (its name read out, the words 1 px wide); from 768 px it says so.
    const words = await showWeather(page).getByText('Show weather').boundingBox();
    if (viewport.width < 768) expect(words?.width).toBeLessThanOrEqual(1);
    else expect(words?.width).toBeGreaterThan(50);
    await expect(chip(page)).toHaveCount(0);
    await expectNoHorizontalOverflow(page, header(page));
    await expectTapTargets(header(page).locator('a:visible, button:visible, select:visible'));
    await expectNoAxeViolations(page);

    await showWeather(page).click();
    await expect(dialog).toContainText(
      'To show the weather where you are, Kincare needs your location. It is used only to look up the weather, rounded to about a kilometre, and is not kept. Your browser will ask you to allow it.',
    );
    await expect(dialog.getByRole('button', { name: 'Use my location' })).toBeFocused();
    await expectNoHorizontalOverflow(page, dialog);
    await expectTapTargets(dialog.getByRole('button'));
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await expect(dialog).toBeHidden();
    await expect(showWeather(page)).toBeFocused();
  });
  // Nothing was asked of the browser, and no weather was asked of the server.
  expect(await positionRequests(page)).toBe(0);
  expect(weatherAnswers).toEqual([]);

  // The person chooses to share it (and allows it when the browser asks): asked once, the weather shows.
  await context.grantPermissions(['geolocation']);
  await showWeather(page).click();
  await dialog.getByRole('button', { name: 'Use my location' }).click();
  await expect(dialog).toBeHidden();
  await expect(chip(page)).toContainText('20°C / 68°F');
  await expect(chip(page).getByRole('img', { name: 'Partly cloudy' })).toBeVisible();
  expect(await positionRequests(page)).toBe(1);
  // Allowed now: the next visit reads the position without a question, and shows the weather.
  await page.reload();
  await expect(chip(page)).toContainText('20°C / 68°F');
  await expect(showWeather(page)).toHaveCount(0);
  await context.close();
});

test('a US zip code the server knows no place for also leads to Show weather, still without asking', async ({
  browser,
}) => {
  const { context, page, weatherAnswers } = await signedInPage(browser, {
    zip: '00000',
    position: HERE,
    at: todayAt(14),
  });
  await expect(showWeather(page)).toBeVisible();
  expect(weatherAnswers).toEqual([404]);
  await actLikeAPerson(page);
  expect(await positionRequests(page)).toBe(0);
  await expect(chip(page)).toHaveCount(0);
  expect(await toastsShown(page)).toEqual([]);
  await context.close();
});

test('by day the header shows the sun, C and F: on one line on a phone, with the place on a laptop', async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, {
    zip: NEW_YORK,
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
  // The server asked the service with 2 decimals, never more.
  expect(asked.every((query) => !/\.\d{3}/.test(`${query.get('latitude')},${query.get('longitude')}`))).toBe(
    true,
  );
  await context.close();
});

test('at night the sun becomes a moon, and an overcast sky stays a cloud', async ({ browser }) => {
  const night = await signedInPage(browser, { zip: NEW_YORK, at: todayAt(21, 30) });
  await expect(chip(night.page)).toHaveAttribute('data-icon', 'Moon');
  await expect(chip(night.page).getByRole('img', { name: 'Clear' })).toBeVisible();
  await expect(chip(night.page).locator('svg.lucide-moon')).toBeVisible();
  await expect(night.page.getByTestId('greeting')).toContainText('Good Evening');
  await night.context.close();

  const overcast = await signedInPage(browser, {
    zip: SEATTLE,
    at: todayAt(5, 30),
    viewport: VIEWPORTS[0],
  });
  await expect(chip(overcast.page)).toHaveAttribute('data-icon', 'Cloud');
  await expect(chip(overcast.page).getByRole('img', { name: 'Cloudy' })).toBeVisible();
  await expect(chip(overcast.page)).toContainText('10°C / 49°F');
  await overcast.context.close();
});

test('offline, after a reload, the last weather still shows, with when it was read', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, { zip: NEW_YORK, at: todayAt(10) });
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

test('with the position refused there is no weather and no error toast: the person who asked is told, and it is logged', async ({
  browser,
}) => {
  const { context, page, warnings, weatherAnswers } = await signedInPage(browser, {
    zip: BENGALURU,
    at: todayAt(14),
  });
  // The person asks; the browser does not share the position (never allowed in this context).
  await showWeather(page).click();
  const dialog = page.getByRole('dialog', { name: 'Show the weather' });
  await dialog.getByRole('button', { name: 'Use my location' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Your browser did not share your location, so the weather cannot be shown. You can allow location for this site in your browser’s settings.',
  );
  await expect.poll(() => warnings.join('\n')).toContain('Weather not updated');
  expect(await positionRequests(page)).toBe(1);
  expect(weatherAnswers).toEqual([]);
  await atEachViewport(page, async () => {
    await expectNoHorizontalOverflow(page, dialog);
    await expectNoAxeViolations(page);
  });
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await expect(chip(page)).toHaveCount(0);
  await expect(showWeather(page)).toBeVisible();
  expect(await toastsShown(page)).toEqual([]);
  await expect(toastsOf(page)).toHaveCount(0);
  await context.close();
});

test('when the weather service fails there is no weather, no error toast, only a log line', async ({
  browser,
}) => {
  const { context, page, warnings, weatherAnswers } = await signedInPage(browser, {
    zip: MIAMI,
    at: todayAt(14),
  });
  await expect.poll(() => weatherAnswers).toContain(502);
  await expect.poll(() => warnings.join('\n')).toContain('the server answered 502');
  await expect(chip(page)).toHaveCount(0);
  expect(await toastsShown(page)).toEqual([]);
  await expect(toastsOf(page)).toHaveCount(0);
  await context.close();
});
