import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { buildApp } from '../../src/server/app';
import type { Locator, Page } from '@playwright/test';
import {
  atEachViewport,
  bearer,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  serverAppointments,
  waitForServiceWorker,
  toastsOf,
} from './support';

type ToastSeen = {
  text: string;
  shownAt: number;
  goneAt: number | null;
  box: { x: number; y: number; width: number; height: number } | null;
  viewport: { width: number; height: number };
};

test('toasts appear bottom-center and close after 2000 ms', async ({ page, patient }) => {
  // Where each toast shows and how long it stays, seen by the page itself as toasts come and go: from the
  // test, a busy machine's delay in answering counted too, and a toast could be gone before it was looked at.
  await page.addInitScript(() => {
    const toasts = new Map<Element, ToastSeen>();
    Object.assign(window, { toastsSeen: () => [...toasts.values()] });
    new MutationObserver(() => {
      const now = performance.now();
      for (const toast of document.querySelectorAll('[data-rht-toaster] [role="status"]')) {
        if (toasts.has(toast)) continue;
        const seen: ToastSeen = {
          text: toast.textContent ?? '',
          shownAt: now,
          goneAt: null,
          box: null,
          viewport: { width: innerWidth, height: innerHeight },
        };
        toasts.set(toast, seen);
        requestAnimationFrame(() => {
          const { x, y, width, height } = toast.getBoundingClientRect();
          seen.box = { x, y, width, height };
        });
      }
      for (const [toast, seen] of toasts) if (seen.goneAt === null && !toast.isConnected) seen.goneAt = now;
    }).observe(document, { childList: true, subtree: true });
  });
  // The sign-in form's toast is the one measured.
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(patient.email);
  await form.getByLabel('Password').fill(patient.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const signedIn = async () =>
    (await page.evaluate(() => (window as unknown as { toastsSeen: () => ToastSeen[] }).toastsSeen())).find(
      ({ text }) => text.includes('Logged in successfully'),
    );
  await expect.poll(async () => (await signedIn())?.goneAt ?? null, { timeout: 10_000 }).not.toBeNull();
  const seen = await signedIn();
  const box = seen?.box;
  expect(box, 'the toast was drawn').toBeTruthy();
  if (seen && box) {
    expect(Math.abs(box.x + box.width / 2 - seen.viewport.width / 2)).toBeLessThan(20);
    expect(box.y).toBeGreaterThan(seen.viewport.height * 0.75);
    expect((seen.goneAt ?? 0) - seen.shownAt).toBeGreaterThan(1000);
  }
});

type Box = { x: number; y: number; width: number; height: number };

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The boxes of `targets` that are on screen now. */
async function visibleBoxes(targets: Locator): Promise<{ name: string; box: Box }[]> {
  const boxes: { name: string; box: Box }[] = [];
  for (const target of await targets.all()) {
    const box = (await target.isVisible()) ? await target.boundingBox() : null;
    const name = await target.evaluate(
      (element) =>
        element.getAttribute('aria-label') ??
        ((element as HTMLInputElement).labels?.[0] ?? element).textContent?.trim() ??
        '',
    );
    if (box && box.width > 0 && box.height > 0) boxes.push({ name, box });
  }
  return boxes;
}

/** Stops the page's clock about now: its timers wait until it resumes. */
async function pauseClock(page: Page) {
  // The page's time runs on between reading it and pausing: a moment later is asked for, again if passed.
  for (let attempt = 0; ; attempt += 1) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + 200);
      return;
    } catch (error) {
      if (attempt === 5 || !String(error).includes('to the past')) throw error;
    }
  }
}

/**
 * The person enters a blood pressure, and while its toast still shows, opens the sheet for a pulse: the
 * toast stands clear of everything there is to tap in that sheet and of the tab bar, is read out (it is
 * in the accessibility tree), fits the screen, and the sheet's Save takes the tap. The page's clock stands
 * still from the first save to that tap, so the toast (2 s) is there whatever the machine's speed.
 */
async function toastWhileSheetOpen(page: Page, pulse: string) {
  // The toasts of the pass before have gone.
  await expect(toastsOf(page)).toHaveCount(0);
  const quickAdd = page.getByTestId('vital-quick-add');
  await quickAdd.getByRole('button', { name: 'Blood pressure' }).click();
  const first = page.getByRole('dialog', { name: 'New blood pressure reading' });
  await first.getByRole('textbox', { name: 'Top number (systolic)' }).fill('121');
  await first.getByRole('textbox', { name: 'Bottom number (diastolic)' }).fill('79');
  await pauseClock(page);
  await first.getByRole('button', { name: 'Save' }).click();
  await expect(first).toBeHidden();
  const toast = page.getByRole('status').filter({ hasText: 'Reading saved.' });
  await expect(toast).toBeVisible();

  await quickAdd.getByRole('button', { name: 'Pulse' }).click();
  const sheet = page.getByRole('dialog', { name: 'New pulse reading' });
  const save = sheet.getByRole('button', { name: 'Save' });
  await expect(save).toBeVisible();
  // Read out while the sheet is open: the toast is not in the part of the page the open dialog hides.
  await expect(toast).toBeVisible();
  // Measured once the toast has moved to its place and its entrance has ended (its spinner, behind the
  // icon, turns for good).
  await expect
    .poll(() =>
      toast.evaluate((element) =>
        element
          .closest('[data-rht-toaster] > div')
          ?.getAnimations({ subtree: true })
          .some(
            (animation) =>
              animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity,
          ),
      ),
    )
    .toBe(false);
  const toastBox = await toast.boundingBox();
  expect(toastBox, 'the toast is drawn').toBeTruthy();
  if (!toastBox) return;
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  expect(toastBox.x).toBeGreaterThanOrEqual(0);
  expect(toastBox.y).toBeGreaterThanOrEqual(0);
  expect(toastBox.x + toastBox.width).toBeLessThanOrEqual(viewport.width);
  expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(viewport.height);
  await expectNoHorizontalOverflow(page);
  const targets = await visibleBoxes(sheet.locator('button, input, select, textarea, a'));
  expect(targets.map(({ name }) => name)).toEqual(expect.arrayContaining(['Save', 'Cancel']));
  const tabBar = page.getByTestId('tab-bar');
  if (await tabBar.isVisible())
    targets.push(...(await visibleBoxes(tabBar)).map(({ box }) => ({ name: 'the tab bar', box })));
  for (const { name, box } of targets) expect(overlap(toastBox, box), `the toast covers ${name}`).toBe(false);
  // Nor any of the sheet: a tall one leaves the toasts their band, and what scrolls in it never passes under.
  const panel = await page.getByTestId('vital-sheet').boundingBox();
  expect(panel && overlap(toastBox, panel), 'the toast covers the sheet').toBe(false);

  // axe on the open sheet with the toast in its place. axe waits on timers, so the clock runs meanwhile,
  // and the pointer rests on the toast, which keeps it (react-hot-toast pauses a toast under the pointer).
  await toast.hover();
  await page.clock.resume();
  await expectNoAxeViolations(page, { withToast: true });
  await expect(toast).toBeVisible();
  await pauseClock(page);

  // The tap lands on Save while the toast shows.
  await sheet.getByRole('textbox', { name: 'Pulse' }).fill(pulse);
  await save.click();
  await expect(sheet).toBeHidden();
  // The first toast still shows: the tap came while it did.
  await expect(toast.first()).toBeVisible();
  await page.clock.resume();
  await expect(page.getByTestId('vital-latest').getByText(`${pulse} bpm`)).toBeVisible();
}

test('a toast that comes while a sheet is open stands clear of its buttons and of the tab bar', async ({
  patientPage: page,
}) => {
  await page.clock.install();
  await page.goto('/vitals');
  await expect(page.getByRole('heading', { level: 1, name: 'Vitals' })).toBeVisible();
  // The toasts' library is there (it loads after the first screen, on timers the clock would hold).
  await expect(page.locator('[data-rht-toaster]')).toBeAttached();
  let pulse = 60;
  await atEachViewport(page, async () => {
    pulse += 1;
    await toastWhileSheetOpen(page, String(pulse));
  });
  // With the browser's text at 200% on a phone, the toast still fits above the taller sheet.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
  await toastWhileSheetOpen(page, '72');
});

test("a waiting new version offers 'A new version is available - Reload', and Reload switches to it", async ({
  page,
}) => {
  // A server of its own on a copy of the build, so that 'deploying' a new service worker touches no other test.
  const dir = mkdtempSync(join(tmpdir(), 'kincare-update-'));
  cpSync(join(import.meta.dirname, '..', '..', 'dist'), join(dir, 'dist'), { recursive: true });
  const config = loadConfig({
    DATA_DIR: join(dir, 'data'),
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'update-test-secret-long-enough-for-signing',
  });
  const database = await openDatabase({ pgliteDir: 'memory://' });
  const app = await buildApp({ config, db: database.db, distDir: join(dir, 'dist') });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const address = app.server.address();
    const base = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
    await page.goto(`${base}/login`);
    await waitForServiceWorker(page);
    const workerFile = join(dir, 'dist', 'sw.js');
    writeFileSync(workerFile, `${readFileSync(workerFile, 'utf8')}\n// the next version\n`);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await expect(page.getByText('A new version is available -')).toBeVisible({ timeout: 15_000 });
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload' }).click()]);
    await expect
      .poll(() =>
        page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null),
      )
      .toBeNull();
    await expect(page.getByRole('tab', { name: 'Sign in' })).toBeVisible();
  } finally {
    await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the nightly periodicsync in the service worker pulls what changed elsewhere into the replica', async ({
  patientPage: page,
  patient,
  context,
  request,
}) => {
  await waitForServiceWorker(page);
  await page.goto('/appointments');
  await expect(page.getByText('No upcoming appointments.')).toBeVisible();
  // Another device books an appointment; this page does not sync on its own meanwhile.
  const created = await request.post('/api/appointments', {
    headers: bearer(patient.token),
    data: {
      id: crypto.randomUUID(),
      patient_id: patient.patientId,
      appointment_title: 'Booked on the laptop',
      appointment_date: '2027-03-01T09:00:00Z',
    },
  });
  expect(created.status()).toBe(201);
  expect(await serverAppointments(page, request)).toHaveLength(1);

  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = registrations.find((registration) => !registration.isDeleted);
      if (live) resolve(live.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const origin = new URL(page.url()).origin;
  await cdp.send('ServiceWorker.dispatchPeriodicSyncEvent', {
    origin,
    registrationId: await registrationId,
    tag: 'kincare-nightly',
  });
  await expect(page.getByText('Booked on the laptop')).toBeVisible({ timeout: 10_000 });
});
