import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  expect,
  type APIRequestContext,
  type Frame,
  type Locator,
  type Page,
  type Request,
  type Response,
} from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Profile } from '../../src/domain/auth';
import {
  acceptBetaPolicy,
  choosePlanAtSignIn,
  makePerson,
  newestMailTo,
  PASSWORD,
  profileOf,
  seedHistory,
  signUpVerified,
  verificationPath,
  type Account,
  type HistoryCounts,
  type HistoryOptions,
  type Http,
} from '../fixtures/seed';

export { PASSWORD, verificationPath, type Account };

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/** The server's local mailbox (DATA_DIR/mail) of this run. */
export const mailDir = () => join(process.env.E2E_DATA_DIR ?? '', 'mail');

/** The newest message to `to` in the server's local mailbox, waiting for it to arrive. */
export function latestMailTo(to: string): Promise<string> {
  return newestMailTo(mailDir(), to);
}

/**
 * The API through Playwright's request context, for the people and records of tests/fixtures/seed.ts
 * (the one way the benchmarks and the browser tests make them: as the product does, through the API).
 */
export function httpOf(request: APIRequestContext): Http {
  return async (method, path, { body, token, file } = {}) => {
    const response = await request.fetch(path, {
      method,
      headers: token ? bearer(token) : {},
      ...(file
        ? { multipart: { [file.field]: { name: file.name, mimeType: file.mimeType, buffer: file.buffer } } }
        : body === undefined
          ? {}
          : { data: body }),
    });
    const text = await response.text();
    try {
      return { status: response.status(), body: text ? (JSON.parse(text) as unknown) : null };
    } catch {
      return { status: response.status(), body: text };
    }
  };
}

/**
 * A verified account made through the API (the UI flow has its own test), not signed in yet: its first
 * sign-in through the app still asks for the beta policy. A patient also gets the Free plan the way a
 * person would: the login answers 403 SUBSCRIPTION_REQUIRED with a subscribe token, and the plan is chosen
 * with it; `freePlan: false` leaves them without one (the login then opens the subscription modal).
 * Tests about signing in use this; the others take a ready account from createAccount.
 */
export async function createVerifiedUser(
  request: APIRequestContext,
  role: 'Patient' | 'Caregiver',
  name = `${role} Tester`,
  { freePlan = true }: { freePlan?: boolean } = {},
) {
  const http = httpOf(request);
  const { email } = await signUpVerified(http, mailDir(), {
    role,
    name,
    email: uniqueEmail(role.toLowerCase()),
  });
  if (role === 'Patient' && freePlan) await choosePlanAtSignIn(http, { email }, 'free');
  return { email, name };
}

/**
 * A verified account made through the API, ready to use: a patient on the Free plan, the beta policy
 * accepted (which every write needs, and which the app asks for on the first sign-in: its own tests
 * cover that screen). tests/fixtures/seed.ts makes it, as it makes the benchmarks' people.
 */
export function createAccount(
  request: APIRequestContext,
  role: 'Patient' | 'Caregiver',
  name = `${role} Tester`,
  // acceptPolicy false: a person who has not accepted the beta policy yet (the policy gate's own tests);
  // zip: their profile's zip code, 10001 (New York) unless given.
  { acceptPolicy = true, zip }: { acceptPolicy?: boolean; zip?: string } = {},
): Promise<Account> {
  return makePerson(httpOf(request), mailDir(), {
    role,
    name,
    email: uniqueEmail(role.toLowerCase()),
    acceptPolicy,
    ...(zip === undefined ? {} : { zip }),
  });
}

/**
 * A patient with two years of records on the server (tests/fixtures/seed.ts: prescriptions with their
 * dose marks, appointments past and to come, lab reports with their rows, the medical history, the last
 * week's check-ins), as the Lighthouse benchmark's populated account has them.
 */
export async function createSeededPatient(
  request: APIRequestContext,
  name = 'Sam Seeded',
  options: HistoryOptions = {},
): Promise<Account & { counts: HistoryCounts }> {
  const patient = await createAccount(request, 'Patient', name);
  const counts = await seedHistory(httpOf(request), patient, options);
  return { ...patient, counts };
}

/**
 * Signs `page` in as `account` the way the app finds a person signed in when it starts (the session copy
 * in IndexedDB, the role in localStorage, the profile in their replica), then opens `path` (their home by
 * default). The sign-in form has tests of its own (accounts.spec.ts, keyboard.spec.ts, sessions.spec.ts):
 * elsewhere it only cost a page load and a form. The replica is written at Dexie's first version with the
 * profile table alone; the app opens it as a replica of an earlier version, adds the other tables and keeps
 * the row (src/local/db.ts), and its first sync fills them as after any sign-in.
 */
export async function signIn(page: Page, account: Account, path = homeOf(account.role)) {
  // A page of the app's origin that runs none of the app (the service worker leaves /api/ to the network).
  if (new URL(page.url(), 'http://x').pathname !== '/api/health') await page.goto('/api/health');
  await page.evaluate(
    async ({ userId, token, role, profile }) => {
      const existing = new Set((await indexedDB.databases()).map((db) => db.name));
      const write = (name: string, store: string, value: unknown) =>
        new Promise<void>((resolve, reject) => {
          // A database the app made already has the store, at its own version: opened as it is.
          const opening = existing.has(name) ? indexedDB.open(name) : indexedDB.open(name, 10);
          opening.onupgradeneeded = () => opening.result.createObjectStore(store, { keyPath: 'id' });
          opening.onerror = () => reject(opening.error);
          opening.onsuccess = () => {
            const db = opening.result;
            const transaction = db.transaction(store, 'readwrite');
            transaction.objectStore(store).put(value);
            transaction.oncomplete = () => {
              db.close();
              resolve();
            };
            transaction.onerror = () => reject(transaction.error);
          };
        });
      await write('kincare-session', 'session', { id: 'current', userId, token });
      await write(`kincare-${userId}`, 'profile', profile);
      localStorage.setItem('role', role);
    },
    {
      userId: account.userId,
      token: await pageToken(page, account),
      role: account.role,
      profile: account.profile,
    },
  );
  await page.goto(path);
}

/** A token for this page of its own (a device's session, as the server lists them), signed in through the API. */
async function pageToken(page: Page, account: Account): Promise<string> {
  const login = await page.request.post('/api/auth/login', {
    data: { email: account.email, password: account.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return ((await login.json()) as { accessToken: string }).accessToken;
}

export const homeOf = (role: 'Patient' | 'Caregiver') =>
  role === 'Patient' ? '/dashboard' : '/caregiver/dashboard';

/** What a person without a plan does: sign in, be asked for a plan (403), and choose `planId` with the token. */
export async function subscribeThroughLogin(request: APIRequestContext, email: string, planId: string) {
  return (await choosePlanAtSignIn(httpOf(request), { email }, planId)) as { checkout_url: string | null };
}

/** Signs in through the sign-in form, and accepts the beta policy the first time. */
export async function signInThroughUi(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Logged in successfully')).toBeVisible();
  await acceptBetaPolicyIfAsked(page);
}

/** After a sign-in: the first one goes to the beta policy (accepted here), later ones straight home. */
export async function acceptBetaPolicyIfAsked(page: Page) {
  await page.waitForURL(/\/(beta-user-policy|dashboard|caregiver\/dashboard|unauthorized)$/);
  if (page.url().endsWith('/beta-user-policy')) {
    await expect(page.getByRole('checkbox')).toHaveCount(4);
    for (const box of await page.getByRole('checkbox').all()) await box.check();
    await page.getByRole('button', { name: 'I agree' }).click();
    await page.waitForURL(/\/(dashboard|caregiver\/dashboard|unauthorized)$/);
  }
}

/**
 * axe finds no violations on the page as it is now. `withToast`: a toast that the test holds on the screen
 * (at rest) is looked at too, instead of being waited out.
 */
export async function expectNoAxeViolations(page: Page, { withToast = false }: { withToast?: boolean } = {}) {
  // Judge colours at rest: a toast fading in or out has, for a moment, too little contrast. Toasts
  // close after 2 s, and one may start fading while axe looks: let them go first (a longer one stays).
  if (!withToast) await toastsClosed(page);
  // A screen still loading (right after a navigation, its code not yet there) has no main landmark nor
  // heading yet: wait for a drawn screen, and let axe judge the page as it is if none comes.
  await page
    .waitForFunction(
      () =>
        document.querySelector('main, [role="main"]') &&
        document.querySelector('h1, [role="heading"][aria-level="1"]'),
      null,
      {
        timeout: 5_000,
      },
    )
    .catch(() => undefined);
  // Likewise a dialog or sheet still sliding in.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity,
      ),
  );
  const violations = await axeViolations(page);
  expect(
    violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([]);
}

/** axe-core's script, read once per worker. */
let axeSource: string | undefined;

/**
 * What axe finds wrong on the page: axe.run in the page itself, after putting axe into each frame that does
 * not have it yet. @axe-core/playwright's analyze() did the same work at three times the cost (about 0.7 s
 * against 0.2 s a look on a quiet machine, and far more on a loaded one: a quarter of the browser stage): it
 * injected axe again at every call, and gathered the results in a new blank page, a new renderer each time,
 * which only pages with cross-origin frames need (Kincare has none). Every rule runs as before; only the
 * details of what passed are not collected (resultTypes).
 */
async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  for (const frame of page.frames()) {
    const hasAxe = await frame.evaluate(() => 'axe' in window).catch(() => true);
    if (!hasAxe) await frame.evaluate(axeSource);
  }
  const options: RunOptions = { resultTypes: ['violations'] };
  return page.evaluate(
    async (runOptions) =>
      (
        await (
          window as unknown as { axe: { run: (context: Document, o: RunOptions) => Promise<AxeResults> } }
        ).axe.run(document, runOptions)
      ).violations,
    options,
  );
}

/**
 * For `test.use` in a spec whose tests never go offline nor look at the service worker: the page runs
 * without it, as on a first visit before it installs. Installing it (precaching about 190 files) was a
 * sixth of such a test's time, and the specs that go offline, reload offline or update the app keep it.
 */
export const WITHOUT_SERVICE_WORKER = { serviceWorkers: 'block' } as const;

/** The names of this origin's IndexedDB databases. */
export async function indexedDbNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name ?? ''));
}

/** Waits until the service worker controls the page (after this the app opens offline). */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

/** The token this page holds: its one home is the session copy in IndexedDB (never localStorage). */
export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === 'kincare-session')) return null;
    return new Promise<string | null>((resolve, reject) => {
      const open = indexedDB.open('kincare-session');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('session')) {
          db.close();
          resolve(null);
          return;
        }
        const read = db.transaction('session').objectStore('session').get('current');
        read.onsuccess = () => {
          db.close();
          resolve((read.result as { token?: string } | undefined)?.token ?? null);
        };
        read.onerror = () => reject(read.error);
      };
    });
  });
}

/** The appointments the server holds for the signed-in user of this page (asked with the page's token). */
export async function serverAppointments(
  page: Page,
  request: APIRequestContext,
): Promise<
  { id: string; appointment_title: string; location: string; notes: string; time_zone?: string | null }[]
> {
  const token = await storedToken(page);
  const response = await request.get('/api/appointments', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return (await response.json()).data;
}

/** Fills and saves the new-appointment form (a time on the half hour, tomorrow). */
export async function addAppointmentThroughUi(page: Page, title: string) {
  await page.getByRole('button', { name: 'New appointment' }).click();
  const form = page.getByRole('form', { name: 'New appointment' });
  await form.getByRole('textbox', { name: 'Title' }).fill(title);
  const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
  const local = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}T10:30`;
  await form.getByLabel('Date and time').fill(local);
  await form.getByRole('button', { name: 'Add appointment' }).click();
  // The toast of an appointment added just before may still be showing.
  await expect(page.getByText('Appointment added').last()).toBeVisible();
}

/** The phone and the laptop sizes every new screen is checked at. */
export const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/**
 * Runs `check` at each of VIEWPORTS, the page resized in place (the app follows a resize: its layout
 * changes at 768 px, src/app/ui/use-wide-screen.ts), and leaves the page at its own size again. A journey
 * that does the same at both sizes runs once, and what differs by size (the layout, what a screen shows,
 * axe on it) is still checked at both. On a signed-in page each check waits for the shell of that size.
 */
export async function atEachViewport(
  page: Page,
  check: (viewport: (typeof VIEWPORTS)[number]) => Promise<void>,
) {
  const own = page.viewportSize();
  for (const viewport of VIEWPORTS) {
    await resizeTo(page, viewport);
    await check(viewport);
  }
  if (own) await resizeTo(page, own);
}

async function resizeTo(page: Page, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  const shell = page.locator('[data-testid="tab-bar"], [data-testid="sidebar"]');
  if ((await shell.count()) === 0) return; // signed out: no shell
  await expect(page.getByTestId(viewport.width < 768 ? 'tab-bar' : 'sidebar')).toBeVisible();
}

/** The page does not scroll sideways, and each of `boxes` lies inside the viewport without clipping its content. */
export async function expectNoHorizontalOverflow(page: Page, ...boxes: Locator[]) {
  const root = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(root.scroll, 'the page scrolls sideways').toBeLessThanOrEqual(root.client);
  const width = page.viewportSize()?.width ?? 0;
  for (const box of boxes) {
    const bounds = await box.boundingBox();
    expect(bounds, 'box is on screen').not.toBeNull();
    if (!bounds) continue;
    expect(bounds.x).toBeGreaterThanOrEqual(0);
    expect(bounds.x + bounds.width).toBeLessThanOrEqual(width);
    expect(await box.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  }
}

/** Every element of `targets` can be tapped: at least 44 x 44 CSS pixels. */
export async function expectTapTargets(targets: Locator) {
  const all = await targets.all();
  expect(all.length).toBeGreaterThan(0);
  for (const target of all) {
    const bounds = await target.boundingBox();
    const name =
      (await target.textContent())?.trim() ||
      (await target.getAttribute('aria-label')) ||
      (await target.evaluate((element) => element.outerHTML.slice(0, 120)));
    expect(bounds?.height ?? 0, `height of ${name}`).toBeGreaterThanOrEqual(44);
    expect(bounds?.width ?? 0, `width of ${name}`).toBeGreaterThanOrEqual(44);
  }
}

/** The toasts on screen: react-hot-toast's (the page's own role=status regions are not among them). */
export const toastsOf = (page: Page) => page.locator('[data-rht-toaster] [role="status"]');

/**
 * Waits (up to 5 s) for the toasts on screen to close, as a person waits before tapping what one covers: a
 * toast takes the taps where it lies, and one under the pointer stays (react-hot-toast pauses it while
 * hovered), so a click that keeps retrying on it would hold it there for good. A longer toast stays.
 */
export async function toastsClosed(page: Page): Promise<void> {
  await toastsOf(page)
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => undefined);
}

/**
 * How much each toast matched by `toast` shows (0 to 1, the least opaque of it and its frames up to the
 * toaster): a closed toast fades out before it leaves the page, and is still "visible" meanwhile.
 */
export function toastOpacities(toast: Locator): Promise<number[]> {
  return toast.evaluateAll((found) =>
    found.map((element) => {
      let opacity = 1;
      for (
        let node: Element | null = element;
        node && !node.matches('[data-rht-toaster]');
        node = node.parentElement
      )
        opacity = Math.min(opacity, Number(getComputedStyle(node).opacity));
      return opacity;
    }),
  );
}

/**
 * Ends every session of this account from elsewhere (a password change on another device signs out older
 * tokens): the page's next call is answered 401. Answers the new password.
 */
export async function endSessionsElsewhere(request: APIRequestContext, email: string): Promise<string> {
  const login = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  const token = (await login.json()).accessToken as string;
  const newPassword = 'Healthier456';
  const changed = await request.put('/api/auth/change-password', {
    headers: { Authorization: `Bearer ${token}` },
    data: { old_password: PASSWORD, new_password: newPassword, confirm_password: newPassword },
  });
  expect(changed.ok()).toBe(true);
  return newPassword;
}

/** A token of this account, signed in through the API (not the page), to look at what the server holds. */
export async function apiToken(request: APIRequestContext, email: string, password = PASSWORD) {
  const login = await request.post('/api/auth/login', { data: { email, password } });
  expect(login.ok()).toBe(true);
  return (await login.json()).accessToken as string;
}

/** The titles of the appointments the server holds for the account of `token`, sorted. */
export async function appointmentTitlesOf(request: APIRequestContext, token: string): Promise<string[]> {
  const response = await request.get('/api/appointments', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return ((await response.json()).data as { appointment_title: string }[])
    .map((row) => row.appointment_title)
    .sort();
}

/** How many entries the outbox of a user's replica holds, read straight from IndexedDB (null: no replica). */
export async function outboxSize(page: Page, userId: string): Promise<number | null> {
  return page.evaluate(async (name) => {
    if (!(await indexedDB.databases()).some((db) => db.name === name)) return null;
    return new Promise<number | null>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const count = db.transaction('outbox').objectStore('outbox').count();
        count.onsuccess = () => {
          db.close();
          resolve(count.result);
        };
        count.onerror = () => reject(count.error);
      };
    });
  }, `kincare-${userId}`);
}

/** The signed-in user's id (the token's `sub`), or null when nobody is signed in on this page. */
export async function signedInUserId(page: Page): Promise<string | null> {
  const token = await storedToken(page);
  const payload = token?.split('.')[1];
  return payload ? (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string }).sub : null;
}

/**
 * A menu entry of the shell, where a person finds it: in the More sheet of the tab bar on a phone (below
 * 768 px), in the sidebar on a larger screen. `role` is 'link' for pages and 'button' for Logout.
 */
export async function menuEntry(
  page: Page,
  name: string,
  role: 'link' | 'button' = 'link',
): Promise<Locator> {
  // The shell's layout follows the width, so the width decides, not whether the tab bar has rendered yet:
  // asking isVisible() right after sign-in raced the shell's first paint and looked in the hidden sidebar.
  const width = page.viewportSize()?.width ?? 1280;
  if (width < 768) {
    const tabs = page.getByTestId('tab-bar');
    await expect(tabs).toBeVisible();
    const sheet = page.getByTestId('more-sheet');
    if (!(await sheet.isVisible())) await tabs.getByRole('button', { name: 'More' }).click();
    await expect(sheet).toBeVisible();
    return sheet.getByRole(role, { name, exact: true });
  }
  return page.getByRole('navigation', { name: 'Main' }).getByRole(role, { name, exact: true });
}

/**
 * The header's 'Sync now', waiting until the cycle is over. The shell also syncs on its own, and a cycle
 * may take the caregiver off a screen they lost (and the header with it), so a missing button is no error:
 * the callers check what the person sees afterwards.
 */
export async function syncNow(page: Page) {
  const status = page.getByTestId('sync-status');
  if (
    !(await status.click({ timeout: 5_000 }).then(
      () => true,
      () => false,
    ))
  )
    return;
  const panel = page.getByTestId('sync-status-panel');
  await panel
    .getByRole('button', { name: 'Sync now' })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await expect(panel.getByRole('button', { name: 'Syncing...' })).toHaveCount(0);
  if (await panel.isVisible()) {
    await panel.press('Escape');
    await expect(panel).toBeHidden();
  }
}

/** The Authorization header of a token, for calls a test makes through the API. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * Accepts the beta policy through the API (the app asks on first sign-in; API-made people skip that
 * screen). Answers the profile as it is then.
 */
export function acceptBetaPolicyThroughApi(request: APIRequestContext, token: string): Promise<Profile> {
  return acceptBetaPolicy(httpOf(request), token);
}

/** The person's profile as the server holds it. */
export function profileThroughApi(request: APIRequestContext, token: string): Promise<Profile> {
  return profileOf(httpOf(request), token);
}

/**
 * Resolves when the document that the next navigation (goto or reload) loads has had its first pull
 * answered. A record on screen may come from the device's table before that document's own sync has run,
 * and a pull still under way in the previous document must not count: requests are tagged by the document
 * that sent them, and only the new one's pull resolves this.
 */
export function firstPullOfNextDocument(page: Page): Promise<Response> {
  let navigated = false;
  const sentByNewDocument = new WeakSet<Request>();
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame()) navigated = true;
  };
  const onRequest = (request: Request) => {
    if (navigated && new URL(request.url()).pathname === '/api/sync/pull') sentByNewDocument.add(request);
  };
  page.on('framenavigated', onNavigated);
  page.on('request', onRequest);
  return page
    .waitForResponse((response) => sentByNewDocument.has(response.request()), { timeout: 30_000 })
    .finally(() => {
      page.off('framenavigated', onNavigated);
      page.off('request', onRequest);
    });
}

/** The patient of `patientToken` invites `email` with these permissions (POST /api/request/send-request). */
export async function invite(
  request: APIRequestContext,
  patientToken: string,
  email: string,
  permissions: string[],
  details: { is_family?: boolean; relationship?: string } = { is_family: true, relationship: 'Daughter' },
) {
  const sent = await request.post('/api/request/send-request', {
    headers: bearer(patientToken),
    data: { caregiver_email: email, ...details, permissions },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
}

/** The caregiver of `caregiverToken` accepts every invitation waiting for them (through the API). */
export async function acceptInvitations(request: APIRequestContext, caregiverToken: string) {
  const received = await request.get('/api/request/received', { headers: bearer(caregiverToken) });
  for (const { request_id } of (await received.json()).data as { request_id: string }[]) {
    const approved = await request.post('/api/request/approve', {
      headers: bearer(caregiverToken),
      data: { request_id },
    });
    expect(approved.ok(), await approved.text()).toBe(true);
  }
}

/**
 * A new caregiver linked to the patient through the API with these permissions: invited by the patient
 * and the invitation approved, as the care-giver screens do it (their own tests cover those screens).
 */
export async function linkCaregiverThroughApi(
  request: APIRequestContext,
  patientToken: string,
  name: string,
  permissions: string[],
  relationship = 'Daughter',
): Promise<Account> {
  const caregiver = await createAccount(request, 'Caregiver', name);
  await invite(request, patientToken, caregiver.email, permissions, { is_family: true, relationship });
  await acceptInvitations(request, caregiver.token);
  return caregiver;
}
