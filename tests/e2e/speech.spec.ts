import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  createVerifiedUser,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  menuEntry,
  signIn,
  signInThroughUi,
  toastsClosed,
  VIEWPORTS,
  WITHOUT_SERVICE_WORKER,
} from './support';

// Online screens only: without the service worker (support.ts: WITHOUT_SERVICE_WORKER).
test.use(WITHOUT_SERVICE_WORKER);

// Speech: the profile's 'Read messages aloud' turns the isSpeechEnabled preference on; toasts are then
// read aloud in en-US (and never before); the lab report form's Report Type and Report Date take voice
// input (a spoken date stored as YYYY-MM-DD, a nonsense one answered with the product's text), the invite
// form's e-mail too; a failed recognition and a browser without recognition say so in the product's words.
// The Web Speech APIs are fakes put on window before the app loads (the browser boundary only): the
// recognizer waits for the test to say what it heard, and speechSynthesis records what it was asked to
// say. Each test runs once, on a phone; the screens are checked at the phone's and the laptop's size.

type SpeechFake = {
  utterances: { text: string; lang: string }[];
  starts: { lang: string; interimResults: boolean; maxAlternatives: number }[];
  hear: (transcript: string) => boolean;
  fail: () => boolean;
};

function installSpeechFake({ recognition }: { recognition: boolean }) {
  type Handlers = {
    onresult: ((event: unknown) => void) | null;
    onerror: ((event: unknown) => void) | null;
    onend: (() => void) | null;
  };
  let pending: Handlers | null = null;
  const fake = {
    utterances: [] as { text: string; lang: string }[],
    starts: [] as { lang: string; interimResults: boolean; maxAlternatives: number }[],
    hear(transcript: string) {
      const recognizer = pending;
      pending = null;
      recognizer?.onresult?.({ results: [[{ transcript, confidence: 0.9 }]] });
      recognizer?.onend?.();
      return recognizer !== null;
    },
    fail() {
      const recognizer = pending;
      pending = null;
      recognizer?.onerror?.({ error: 'no-speech' });
      recognizer?.onend?.();
      return recognizer !== null;
    },
  };
  Reflect.set(window, '__speech', fake);
  class FakeRecognition {
    lang = '';
    continuous = true;
    interimResults = true;
    maxAlternatives = 5;
    onresult: Handlers['onresult'] = null;
    onerror: Handlers['onerror'] = null;
    onend: Handlers['onend'] = null;
    start() {
      fake.starts.push({
        lang: this.lang,
        interimResults: this.interimResults,
        maxAlternatives: this.maxAlternatives,
      });
      pending = {
        onresult: (event) => this.onresult?.(event),
        onerror: (event) => this.onerror?.(event),
        onend: () => this.onend?.(),
      };
    }
    stop() {}
    abort() {}
  }
  for (const name of ['SpeechRecognition', 'webkitSpeechRecognition']) Reflect.deleteProperty(window, name);
  if (recognition)
    Object.defineProperty(window, 'webkitSpeechRecognition', { value: FakeRecognition, configurable: true });
  Object.defineProperty(window, 'speechSynthesis', {
    configurable: true,
    value: {
      speaking: false,
      speak: (utterance: SpeechSynthesisUtterance) =>
        fake.utterances.push({ text: utterance.text, lang: utterance.lang }),
      cancel: () => undefined,
      getVoices: () => [],
    },
  });
}

const speech = (page: Page) =>
  page.evaluate(() => {
    const fake = Reflect.get(window, '__speech') as SpeechFake;
    return { utterances: [...fake.utterances], starts: [...fake.starts] };
  });
const spokenTexts = async (page: Page) => (await speech(page)).utterances.map((said) => said.text);

/** The recognizer now listening hears `transcript` (false when none was listening). */
const hear = (page: Page, transcript: string) =>
  page.evaluate((words) => (Reflect.get(window, '__speech') as SpeechFake).hear(words), transcript);
const failRecognition = (page: Page) =>
  page.evaluate(() => (Reflect.get(window, '__speech') as SpeechFake).fail());

const targets = (scope: Locator) =>
  scope.locator('button:visible, select:visible, input:visible:not(.sr-only):not([type="checkbox"])');

async function checkScreen(page: Page, scope: Locator) {
  await atEachViewport(page, async () => {
    await expectNoAxeViolations(page);
    await expectNoHorizontalOverflow(page);
    await expectTapTargets(targets(scope));
  });
}

async function openProfile(page: Page) {
  await (await menuEntry(page, 'Profile')).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile', exact: true })).toBeVisible();
}

async function openUploadForm(page: Page) {
  if ((page.viewportSize()?.width ?? 1280) < 768)
    await page.getByTestId('tab-bar').getByRole('link', { name: 'Reports' }).click();
  else await (await menuEntry(page, 'Lab Reports')).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Lab Report History' })).toBeVisible();
  // The last page's toast (the profile saved) may still lie over the button on a phone.
  await toastsClosed(page);
  await page.getByRole('button', { name: 'Upload a report' }).click();
  const form = page.getByRole('form', { name: 'Upload lab report' });
  await expect(form).toBeVisible();
  return form;
}

async function enableSpeech(page: Page) {
  await openProfile(page);
  const readAloud = page.getByRole('switch', { name: 'Read messages aloud' });
  await expect(readAloud).toHaveAttribute('aria-checked', 'false');
  await readAloud.click();
  await expect(readAloud).toHaveAttribute('aria-checked', 'true');
  expect(await page.evaluate(() => localStorage.getItem('isSpeechEnabled'))).toBe('true');
}

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test('read aloud and voice input on the lab report form and the invite e-mail', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await page.addInitScript(installSpeechFake, { recognition: true });
    // Through the sign-in form: its toast must not be read aloud either.
    const patient = await createVerifiedUser(request, 'Patient', 'Sam Speech');
    await signInThroughUi(page, patient.email);

    // Speech is off: the sign-in toast was not read, and the form offers no microphone.
    let form = await openUploadForm(page);
    await expect(form.getByRole('textbox', { name: 'Report Type' })).toBeVisible();
    await expect(form.getByRole('button', { name: /^Speak the/ })).toHaveCount(0);
    expect(await spokenTexts(page)).toEqual([]);

    // The profile's switch, beside the theme; then a toast is read aloud, in en-US.
    await enableSpeech(page);
    await checkScreen(page, page.getByRole('switch', { name: 'Read messages aloud' }).locator('..'));
    const profileForm = page.getByRole('form', { name: 'Update profile' });
    await profileForm.getByRole('textbox', { name: 'Name', exact: true }).fill('Sam Spoken');
    await profileForm.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile updated successfully')).toBeVisible();
    await expect
      .poll(async () => (await speech(page)).utterances)
      .toContainEqual({ text: 'Profile updated successfully', lang: 'en-US' });

    // Report Type: the words as heard; 'Listening…' while the recognizer listens.
    form = await openUploadForm(page);
    const typeMic = form.getByRole('button', { name: 'Speak the Report Type' });
    await typeMic.click();
    await expect(typeMic).toHaveAttribute('aria-pressed', 'true');
    await expect(form.getByText('Listening…')).toBeVisible();
    expect(await hear(page, 'Blood test')).toBe(true);
    await expect(form.getByRole('textbox', { name: 'Report Type' })).toHaveValue('Blood test');
    await expect(typeMic).toHaveAttribute('aria-pressed', 'false');
    expect((await speech(page)).starts).toEqual([
      { lang: 'en-US', interimResults: false, maxAlternatives: 1 },
    ]);

    // Report Date: a spoken date is stored as YYYY-MM-DD; nonsense gets the product's text and keeps it.
    const dateField = form.locator('input[name="report_date"]');
    const dateMic = form.getByRole('button', { name: 'Speak the Report Date' });
    await dateMic.click();
    expect(await hear(page, 'March fifth twenty twenty six')).toBe(true);
    await expect(dateField).toHaveValue('2026-03-05');
    await dateMic.click();
    expect(await hear(page, 'the purple elephant')).toBe(true);
    await expect(form.getByText("Couldn't understand the date. Please try again.")).toBeVisible();
    await expect(dateField).toHaveValue('2026-03-05');
    await expect.poll(() => spokenTexts(page)).toContain("Couldn't understand the date. Please try again.");

    // A failed recognition says so.
    await typeMic.click();
    expect(await failRecognition(page)).toBe(true);
    await expect(form.getByText('Could not recognize speech. Try again.')).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Report Type' })).toHaveValue('Blood test');
    await checkScreen(page, form);

    // The invite form's e-mail: ' dot ' and ' at ' rules.
    await page.goto('/care-giver');
    const invite = page.getByRole('form', { name: 'Invite a caregiver' });
    await invite.getByRole('button', { name: 'Speak the Caregiver email' }).click();
    expect(await hear(page, 'Jane dot Doe at example dot com')).toBe(true);
    await expect(invite.getByRole('textbox', { name: 'Caregiver email' })).toHaveValue(
      'jane.doe@example.com',
    );
    await checkScreen(page, invite);
  });

  test("without speech recognition the microphone says 'Speech recognition not supported.'", async ({
    page,
    patient,
  }) => {
    await page.addInitScript(installSpeechFake, { recognition: false });
    await signIn(page, patient);
    await enableSpeech(page);
    const form = await openUploadForm(page);
    await form.getByRole('button', { name: 'Speak the Report Type' }).click();
    await expect(form.getByText('Speech recognition not supported.')).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Report Type' })).toHaveValue('');
    await expect.poll(() => spokenTexts(page)).toContain('Speech recognition not supported.');
    await checkScreen(page, form);
  });
});
