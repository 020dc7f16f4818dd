import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect, test } from './fixtures';
import {
  atEachViewport,
  bearer,
  createAccount,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
  expectTapTargets,
  linkCaregiverThroughApi,
  menuEntry,
  signIn,
  VIEWPORTS,
  waitForServiceWorker,
  type Account,
  toastsOf,
} from './support';

// /lab-report: a text PDF uploaded and read by the server (its text layer, ~0.2 s), the three
// progress messages in order, the review, the save, the history, the preview (pdf.js), edit and delete; a
// report chosen offline that is uploaded and read on reconnecting; a caregiver without AddLabReport; and
// Trends over three reports. Every state: axe, no sideways scrolling, 44 px targets (the upload journey runs
// once, on a phone, and each of its states is checked at the phone's and the laptop's size).

const MESSAGES = {
  uploading: 'Uploading your lab report ... Hang tight!',
  analyzing: 'Analyzing your lab report to extract data...',
  review: '✅ Please review the extracted data before saving.',
  uploaded: 'Lab report uploaded successfully',
  updated: 'Lab report updated successfully',
  confirm: 'Are you sure you want to delete lab report? This action cannot be undone.',
  offline: 'You are offline. The report is kept on this device and will be read when you are back online.',
  readyToReview: 'Your lab report has been read. Please review the extracted data before saving.',
};
const FILE_LABEL = 'Report file (photo or PDF)';

/** A one-page lab report as a lab portal gives it: real text (Helvetica), a header line over the results. */
async function labPdf(collected: string, glucose: string, flag: 'H' | 'L' | ''): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  const text = (words: string, x: number, top: number, isBold = false) =>
    page.drawText(words, { x, y: 792 - top, size: 10, font: isBold ? bold : regular });
  text('CITY CLINICAL LABORATORY', 50, 60, true);
  text('Patient: Lena Lab', 50, 90);
  text('Ordering Physician: Dr. Ada Lovelace', 50, 105);
  text(`Collected: ${collected}`, 50, 120);
  text('BASIC METABOLIC PANEL', 50, 160, true);
  const columns = [50, 230, 310, 390, 500];
  ['Test', 'Result', 'Flag', 'Units', 'Reference Range'].forEach((header, index) =>
    text(header, columns[index] ?? 0, 180, true),
  );
  const rows = [
    ['Glucose', glucose, flag, 'mg/dL', '70-99'],
    ['Sodium', '140', '', 'mmol/L', '135-145'],
    ['Potassium', '4.2', '', 'mmol/L', '3.5-5.1'],
    ['Creatinine', '0.9', '', 'mg/dL', '0.6-1.2'],
  ];
  rows.forEach((row, line) =>
    row.forEach((cell, index) => {
      if (cell) text(cell, columns[index] ?? 0, 200 + line * 16);
    }),
  );
  return Buffer.from(await pdf.save());
}

async function openLabReports(page: Page) {
  if ((page.viewportSize()?.width ?? 1280) < 768)
    await page.getByTestId('tab-bar').getByRole('link', { name: 'Reports' }).click();
  else await (await menuEntry(page, 'Lab Reports')).click();
  await expect(page).toHaveURL(/\/lab-report$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Lab Report History' })).toBeVisible();
}

/** The screen's own controls (the shell is checked in its own spec); a hidden camera input is reached by its label. */
const targets = (scope: Locator) =>
  scope.locator('button:visible, select:visible, input:visible:not(.sr-only):not([type="checkbox"])');

async function checkScreen(page: Page, scope: Locator = page.getByRole('main')) {
  await expectNoAxeViolations(page);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(targets(scope));
}

/** Starts recording each message of the upload flow as it appears, in order. */
async function recordFlowMessages(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    Reflect.set(window, '__labMessages', seen);
    new MutationObserver(() => {
      for (const element of document.querySelectorAll('[data-testid="upload-message"]')) {
        const text = element.textContent?.trim() ?? '';
        if (text && seen.at(-1) !== text) seen.push(text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
const flowMessages = (page: Page) => page.evaluate(() => Reflect.get(window, '__labMessages') as string[]);

/**
 * Toasts close after 2 s, but not while the pointer rests on them (react-hot-toast pauses them), and on a
 * phone they show where the Submit button was: move the pointer off and let them go.
 */
async function letToastsGo(page: Page) {
  await page.mouse.move(1, 1);
  await expect(toastsOf(page)).toHaveCount(0, { timeout: 10_000 });
}

const reportItem = (page: Page, type: string) =>
  page.locator('[data-lab-report-id]').filter({ hasText: type });

type ServerReport = {
  report_type: string;
  results: { name: string; value: string }[];
  attachment_key: string | null;
};
async function serverReports(request: APIRequestContext, token: string): Promise<ServerReport[]> {
  const response = await request.get('/api/lab-reports', { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data as ServerReport[];
}

/** A report with its results, added through the API (as another device would). */
async function reportThroughApi(
  request: APIRequestContext,
  { token, patientId }: Account,
  fields: { type: string; date: string; glucose: string; flag: 'H' | 'L' | '' },
) {
  const uploaded = await request.post('/api/upload-image?type=lab', {
    headers: bearer(token),
    multipart: {
      image: {
        name: 'report.pdf',
        mimeType: 'application/pdf',
        buffer: await labPdf(fields.date, fields.glucose, fields.flag),
      },
    },
  });
  expect(uploaded.ok(), await uploaded.text()).toBe(true);
  const created = await request.post('/api/lab-reports', {
    headers: bearer(token),
    data: {
      patient_id: patientId,
      attachment_key: (await uploaded.json()).files[0].key as string,
      report_type: fields.type,
      report_date: fields.date,
      report_ocr: JSON.stringify({
        lab_results: [
          {
            name: 'Glucose',
            value: fields.glucose,
            unit: 'mg/dL',
            flag: fields.flag,
            reference_range: '70-99',
            code: '2345-7',
          },
        ],
      }),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
}

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS[0], patientName: 'Lena Lab' });

  test('upload a PDF, review, save, preview, edit and delete', async ({
    patientPage: page,
    patient: { token },
    request,
  }) => {
    test.setTimeout(180_000);
    await openLabReports(page);
    await expect(page.getByText('No reports found.')).toBeVisible();
    await atEachViewport(page, () => checkScreen(page));

    // The empty history leads to the upload form, focus in its file chooser.
    await page.getByRole('button', { name: 'Upload a report' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Upload Lab Report' })).toBeVisible();
    const form = page.getByRole('form', { name: 'Upload lab report' });
    await expect(form.getByLabel(FILE_LABEL)).toBeFocused();
    await expect(form.getByRole('textbox', { name: 'Report Type' })).toHaveAttribute(
      'placeholder',
      'e.g. Blood Test',
    );
    await atEachViewport(page, () => checkScreen(page));

    // Submitting without a file says so, in the product's words.
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(form.getByText('Report file is required')).toBeVisible();
    await expect(form.getByText('Report Date is required')).toBeVisible();

    // Uploaded, read, and prefilled for review: the three messages in order, with a tip.
    await recordFlowMessages(page);
    await form.getByLabel(FILE_LABEL).setInputFiles({
      name: 'bmp.pdf',
      mimeType: 'application/pdf',
      buffer: await labPdf('2026-01-10', '105', 'H'),
    });
    await expect(form.getByText(MESSAGES.review)).toBeVisible({ timeout: 30_000 });
    expect(await flowMessages(page)).toEqual([MESSAGES.uploading, MESSAGES.analyzing, MESSAGES.review]);
    await expect(form.getByTestId('health-tip')).toHaveText(/^Tip: /);
    await expect(form.getByRole('textbox', { name: 'Report Type' })).toHaveValue('Basic Metabolic Panel');
    await expect(form.getByLabel('Report Date')).toHaveValue('2026-01-10');
    await expect(form.getByRole('group', { name: /^Result \d/ })).toHaveCount(4);
    await expect(form.getByRole('group', { name: 'Result 1: Glucose' }).getByLabel('Value')).toHaveValue(
      '105',
    );
    // The chosen PDF, drawn by pdf.js in a frame 500 px high.
    await expect(form.getByRole('img', { name: /The chosen lab report, page 1 of 1/ })).toBeVisible();
    expect((await form.getByTestId('report-file-frame').boundingBox())?.height).toBe(500);
    await atEachViewport(page, () => checkScreen(page));

    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(MESSAGES.uploaded)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Lab Report History' })).toBeVisible();
    const saved = reportItem(page, 'Basic Metabolic Panel');
    await expect(saved).toBeFocused();
    // A card on a phone, a table's row from 768 px.
    await atEachViewport(page, async (viewport) => {
      if (viewport.width < 768) await expect(saved).toContainText('Report Date:2026/01/10');
      else await expect(saved.getByRole('cell').first()).toHaveText(/^\d{4}\/\d{2}\/\d{2}$/);
      await checkScreen(page);
    });
    await expect
      .poll(async () =>
        (await serverReports(request, token)).map((row) => [row.report_type, row.results.length]),
      )
      .toEqual([['Basic Metabolic Panel', 4]]);

    // Preview through the signed link: pdf.js draws it.
    await saved.getByRole('button', { name: 'Preview Basic Metabolic Panel of 2026/01/10' }).click();
    const preview = page.getByRole('dialog', { name: 'Lab Report Preview' });
    await expect(preview.getByRole('img', { name: /page 1 of 1/ })).toBeVisible({ timeout: 20_000 });
    await atEachViewport(page, () => checkScreen(page, preview));
    await preview.getByRole('button', { name: 'Close' }).click();
    await expect(preview).toBeHidden();

    // Edit: no chooser, the file behind a toggle, the form prefilled.
    await saved.getByRole('button', { name: 'Edit Basic Metabolic Panel of 2026/01/10' }).click();
    const edit = page.getByRole('form', { name: 'Edit lab report' });
    await expect(edit.getByRole('textbox', { name: 'Report Type' })).toHaveValue('Basic Metabolic Panel');
    await expect(edit.getByLabel(FILE_LABEL)).toHaveCount(0);
    await edit.getByRole('button', { name: 'View Lab Report' }).click();
    await expect(edit.getByRole('img', { name: /page 1 of 1/ })).toBeVisible({ timeout: 20_000 });
    await atEachViewport(page, () => checkScreen(page));
    await edit.getByRole('button', { name: 'Hide Lab Report' }).click();
    await edit.getByRole('textbox', { name: 'Report Type' }).fill('BMP follow-up');
    await edit.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(MESSAGES.updated)).toBeVisible();
    const edited = reportItem(page, 'BMP follow-up');
    await expect(edited).toBeFocused();
    await expect
      .poll(async () => (await serverReports(request, token)).map((row) => row.report_type))
      .toEqual(['BMP follow-up']);

    // Delete asks first, in the product's words.
    await edited.getByRole('button', { name: /^Delete/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText(MESSAGES.confirm);
    await atEachViewport(page, () => checkScreen(page, confirm));
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No reports found.')).toBeVisible();
    await expect.poll(async () => (await serverReports(request, token)).length).toBe(0);
  });
});

test.describe('at 390x844', () => {
  test.use({ viewport: VIEWPORTS[0] });

  test('a report chosen offline waits to upload, and is read on reconnecting', async ({
    patientPage: page,
    patient: { token },
    context,
    request,
  }) => {
    test.setTimeout(120_000);
    await waitForServiceWorker(page);
    await openLabReports(page);
    await page.getByRole('tab', { name: 'Upload Report' }).click();
    const form = page.getByRole('form', { name: 'Upload lab report' });

    await context.setOffline(true);
    await expect(page.getByTestId('sync-status')).toContainText('Offline');
    await form.getByLabel(FILE_LABEL).setInputFiles({
      name: 'offline.pdf',
      mimeType: 'application/pdf',
      buffer: await labPdf('2026-02-20', '88', ''),
    });
    await expect(form.getByText(MESSAGES.offline)).toBeVisible();
    // The chosen file still previews with no connection (pdf.js from the service worker's cache).
    await expect(form.getByRole('img', { name: /The chosen lab report, page 1 of 1/ })).toBeVisible();
    await form.getByRole('textbox', { name: 'Report Type' }).fill('Offline panel');
    await form.getByLabel('Report Date').fill('2026-02-20');
    await checkScreen(page);
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(MESSAGES.uploaded)).toBeVisible();
    await letToastsGo(page);
    const waiting = reportItem(page, 'Offline panel');
    await expect(waiting).toContainText('Waiting to upload');
    await checkScreen(page);

    await context.setOffline(false);
    await expect(waiting).toContainText('Ready to review', { timeout: 30_000 });
    await expect(waiting).not.toContainText('Waiting to upload');
    await expect(page.getByText(MESSAGES.readyToReview)).toBeVisible();
    await letToastsGo(page);
    await checkScreen(page);

    // Edit opens the review with what was read; saving it clears 'Ready to review'.
    await waiting.getByRole('button', { name: /^Edit/ }).click();
    const review = page.getByRole('form', { name: 'Edit lab report' });
    await expect(review.getByText(MESSAGES.review)).toBeVisible();
    await expect(review.getByRole('group', { name: 'Result 1: Glucose' }).getByLabel('Value')).toHaveValue(
      '88',
    );
    await expect(review.getByRole('textbox', { name: 'Report Type' })).toHaveValue('Offline panel');
    await review.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(MESSAGES.updated)).toBeVisible();
    await expect(reportItem(page, 'Offline panel')).not.toContainText('Ready to review');
    await expect
      .poll(
        async () =>
          (await serverReports(request, token)).map((row) => ({
            type: row.report_type,
            results: row.results.length,
            uploaded: row.attachment_key !== null && !row.attachment_key.startsWith('blob:'),
          })),
        { timeout: 15_000 },
      )
      .toEqual([{ type: 'Offline panel', results: 4, uploaded: true }]);
  });

  test('Trends: one test over three reports, with its reference range as a band', async ({
    page,
    request,
  }) => {
    const patient = await createAccount(request, 'Patient', 'Tess Trend');
    await reportThroughApi(request, patient, {
      type: 'Fasting glucose',
      date: '2025-11-02',
      glucose: '92',
      flag: '',
    });
    await reportThroughApi(request, patient, {
      type: 'Fasting glucose',
      date: '2026-01-05',
      glucose: '118',
      flag: 'H',
    });
    await reportThroughApi(request, patient, {
      type: 'Fasting glucose',
      date: '2026-03-09',
      glucose: '97',
      flag: '',
    });
    await signIn(page, patient);
    await openLabReports(page);
    await expect(page.locator('[data-lab-report-id]')).toHaveCount(3);
    await page.getByRole('tab', { name: 'Trends' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Lab Result Trends' })).toBeVisible();
    const trend = page.getByTestId('lab-trend');
    await expect(page.getByLabel('Test')).toHaveValue('loinc:2345-7');
    await expect(trend.getByTestId('trend-point')).toHaveCount(3);
    await expect(trend.getByTestId('trend-band')).toBeVisible();
    await expect(trend.locator('[data-outside="high"]')).toHaveCount(1);
    await expect(trend.getByTestId('trend-summary')).toContainText(
      'reference range 70-99 mg/dL; 1 outside the range',
    );
    await expect(trend.getByRole('table').getByRole('row')).toHaveCount(4);
    await expect(trend.getByRole('row', { name: /2026\/01\/05 118 mg\/dL 70-99 High/ })).toBeVisible();
    // The axis reads round numbers, evenly apart (not 118 / 94 / 70 or 6.64 / 5.2 / 3.76), at both sizes.
    await atEachViewport(page, async () => {
      const ticks = (await trend.getByTestId('trend-tick').allTextContents()).map(Number);
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      for (const tick of ticks) expect(tick % 5, `${ticks.join(', ')}`).toBe(0);
      expect(new Set(ticks.slice(1).map((tick, index) => tick - (ticks[index] ?? 0))).size).toBe(1);
    });
    await checkScreen(page);
    // The dark theme keeps every colour's contrast (the chart's band and marks are theme colours).
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkScreen(page);
    await page.getByRole('tab', { name: 'View Reports' }).click();
    await checkScreen(page);
    // Each report names its type once, as a card on a phone and as a row at a desk.
    await atEachViewport(page, async () => {
      for (const report of await page.locator('[data-lab-report-id]').all())
        expect((await report.textContent())?.match(/Fasting glucose/g)?.length).toBe(1);
    });
  });
});

test.describe('at 1280x800', () => {
  test.use({ viewport: VIEWPORTS[1] });

  test('a caregiver with Read Lab Report only: the history, no upload tab, no edit or delete', async ({
    page,
    request,
  }) => {
    const patient = await createAccount(request, 'Patient', 'Paula Patient');
    await reportThroughApi(request, patient, {
      type: 'Lipid Panel',
      date: '2026-02-02',
      glucose: '90',
      flag: '',
    });
    const caregiver = await linkCaregiverThroughApi(request, patient.token, 'Cora Reader', ['ReadLabReport']);

    await signIn(page, caregiver);
    await (await menuEntry(page, 'Lab Reports')).click();
    await expect(page).toHaveURL(/\/caregiver\/lab-report$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Lab Report History' })).toBeVisible();
    const row = reportItem(page, 'Lipid Panel');
    await expect(row).toBeVisible();
    await expect(page.getByRole('tab')).toHaveText(['View Reports', 'Trends']);
    await expect(row.getByRole('button')).toHaveText(['Preview']);
    await expect(page.getByRole('button', { name: /Upload/ })).toHaveCount(0);
    await checkScreen(page);
  });
});
