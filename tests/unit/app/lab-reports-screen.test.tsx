// The lab report screen on the device's tables: the history as cards or a table, its debounced
// filters and empty state, permissions, reports waiting to upload or ready to review, the upload flow
// (online: uploaded, read, reviewed, saved; offline: kept to be read later), the form's messages, and the
// Trends chart's band. The pure parts (ranges, the photo resize's size, the form's checks) first.

import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { LabReport, LabReportOcrData } from '../../../src/domain/lab-reports';
import type * as LabReportOcr from '../../../src/local/lab-report-ocr';
import { LAB_REPORT_MESSAGES } from '../../../src/domain/lab-reports';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import { fitWithin, jpegName } from '../../../src/local/image-resize';
import {
  checkLabForm,
  EMPTY_LAB_FORM,
  withExtraction,
} from '../../../src/app/features/lab-reports/lab-report-form-values';
import {
  numericValue,
  parseRange,
  trendSeries,
  valueScale,
} from '../../../src/app/features/lab-reports/lab-trends-data';
import { displayDate } from '../../../src/app/features/lab-reports/lab-report-format';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('react-hot-toast', () => ({ default: toasts }));
const ocr = vi.hoisted(() => ({ upload: vi.fn(), extract: vi.fn() }));
vi.mock('../../../src/local/lab-report-ocr', async (original) => ({
  ...(await original<typeof LabReportOcr>()),
  uploadReportFile: ocr.upload,
  extractLabReport: ocr.extract,
}));
// pdf.js is not for jsdom: the viewer is a stand-in here (the browser test draws a real PDF).
vi.mock('../../../src/app/features/lab-reports/pdf-viewer', () => ({
  PdfViewer: ({ title }: { title: string }) => <p>PDF: {title}</p>,
}));
const { LabReportsPage } = await import('../../../src/app/features/lab-reports/lab-reports-page');

const PATIENT = '6f1c1a52-7d55-4c0e-9d43-0b6f1f0f0a01';
const DOCTOR = '0b1c1a52-7d55-4c0e-9d43-0b6f1f0f0a02';
const ALL = { add: true, edit: true, delete: true };

function report(id: string, fields: Partial<LabReport> = {}): LabReport {
  return {
    id,
    patient_id: PATIENT,
    report_type: 'Lipid Panel',
    report_date: '2026-03-14',
    doctor_id: null,
    doctor_name: null,
    report_ocr: '',
    results: [],
    attachment_key: 'lab/0123456789abcdef0123456789abcdef.pdf',
    caregiver_id: null,
    version: 1,
    created_at: '2026-03-15T10:00:00.000Z',
    updated_at: '2026-03-15T10:00:00.000Z',
    ...fields,
  };
}

const glucose = (value: string, flag: 'H' | 'L' | '' = '') => ({
  name: 'Glucose',
  value,
  unit: 'mg/dL',
  flag,
  reference_range: '70-99',
  code: '2345-7',
});

const extraction: LabReportOcrData = {
  doctor_name: 'Dr. Ada Lovelace',
  report_date: '2026-02-01',
  report_type: 'Basic Metabolic Panel',
  doctor_id: DOCTOR,
  source: 'text-layer',
  lab_results: [
    { ...glucose('105', 'H') },
    {
      name: 'Sodium',
      value: '14.1',
      unit: 'mmol/L',
      flag: '',
      reference_range: '135-145',
      needs_review: true,
      review_reasons: ['decimal-suspect'],
    },
  ],
};

let db: KincareDb;
beforeAll(async () => {
  db = await openUserDb('lab-reports-screen');
  globalThis.URL.createObjectURL = () => 'blob:preview';
  globalThis.URL.revokeObjectURL = () => undefined;
});
beforeEach(async () => {
  await Promise.all([
    db.lab_reports.clear(),
    db.labExtractions.clear(),
    db.outbox.clear(),
    db.doctors.clear(),
    db.blobs.clear(),
  ]);
  await db.doctors.add({
    id: DOCTOR,
    doctor_id: DOCTOR,
    patient_id: PATIENT,
    name: 'Dr. Ada Lovelace',
    speciality: 'Internal medicine',
  } as never);
  ocr.upload.mockReset();
  ocr.extract.mockReset();
  toasts.success.mockReset();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('pure parts', () => {
  it('reads reference ranges and values', () => {
    expect(parseRange('70-99')).toEqual({ low: 70, high: 99 });
    expect(parseRange('0.5 - 1.2')).toEqual({ low: 0.5, high: 1.2 });
    expect(parseRange('<200')).toEqual({ low: null, high: 200 });
    expect(parseRange('>= 40')).toEqual({ low: 40, high: null });
    expect(parseRange('Negative')).toBeNull();
    expect(numericValue('5.4')).toBe(5.4);
    expect(numericValue('<0.5')).toBe(0.5);
    expect(numericValue('1,250')).toBe(1250);
    expect(numericValue('Negative')).toBeNull();
  });

  it('follows a test across reports, oldest first, marking values outside the range', () => {
    const series = trendSeries([
      report('b', { report_date: '2026-02-01', results: [glucose('120')] }),
      report('a', { report_date: '2026-01-01', results: [glucose('90')] }),
      report('c', { report_date: '2026-03-01', results: [{ ...glucose('60'), code: undefined }] }),
    ]);
    // 'c' has no code: it is followed by its name, apart from the coded ones.
    const coded = series.find((item) => item.key === 'loinc:2345-7');
    expect(coded?.points.map((point) => [point.value, point.outside])).toEqual([
      [90, null],
      [120, 'high'],
    ]);
    expect(coded?.bounds).toEqual({ low: 70, high: 99 });
    expect(series.find((item) => item.key === 'name:glucose')?.points[0]?.outside).toBe('low');
  });

  it("marks a trend chart's axis with round numbers that span its points and range", () => {
    const points = [5.2, 4.1, 5.9].map((value, index) => ({
      reportId: `r${index}`,
      date: `2026-0${index + 1}-01`,
      value,
      text: String(value),
      unit: 'mmol/L',
      flag: '' as const,
      range: '3.4-6.1',
      outside: null,
    }));
    const { min, max, ticks } = valueScale({ points, bounds: { low: 3.4, high: 6.1 } });
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    // Evenly spaced, each a whole number of tenths, never a value such as 6.64 or 3.76.
    const step = (ticks[1] ?? 0) - (ticks[0] ?? 0);
    for (const [index, tick] of ticks.entries()) {
      expect(Math.abs(tick * 10 - Math.round(tick * 10))).toBeLessThan(1e-9);
      expect(tick - (ticks[0] ?? 0)).toBeCloseTo(index * step, 9);
    }
    expect([min, max]).toEqual([ticks[0], ticks.at(-1)]);
    expect(min).toBeLessThanOrEqual(3.4);
    expect(max).toBeGreaterThanOrEqual(6.1);
  });

  it('fits a photo within 3000 px, keeping its shape; names the JPEG', () => {
    expect(fitWithin(6000, 4000)).toEqual({ width: 3000, height: 2000, scaled: true });
    expect(fitWithin(3024, 4032)).toEqual({ width: 2250, height: 3000, scaled: true });
    expect(fitWithin(3000, 1000)).toEqual({ width: 3000, height: 1000, scaled: false });
    expect(fitWithin(1, 10000)).toEqual({ width: 1, height: 3000, scaled: true });
    expect(jpegName('scan.png')).toBe('scan.jpg');
    expect(jpegName('IMG_0001.HEIC')).toBe('IMG_0001.jpg');
  });

  it('checks the form in the product words', () => {
    const context = { today: '2026-05-01', hasFile: false, results: [] };
    expect(checkLabForm(EMPTY_LAB_FORM, context)).toEqual({
      report_type: LAB_REPORT_MESSAGES.reportTypeRequired,
      report_date: 'Report Date is required',
      file: 'Report file is required',
    });
    expect(
      checkLabForm(
        { report_type: 'CBC', report_date: '2026-05-02', doctor_id: '' },
        { ...context, hasFile: true },
      ).report_date,
    ).toBe('Report Date cannot be in the future.');
    expect(
      checkLabForm(
        { report_type: 'CBC', report_date: '2026-05-01', doctor_id: '' },
        { ...context, hasFile: true },
      ),
    ).toEqual({});
    expect(displayDate('2026-03-14')).toBe('2026/03/14');
  });

  it('prefills from an extraction, leaving a future date and an unknown doctor out', () => {
    const next = withExtraction(
      { report_type: 'typed', report_date: '2026-01-01', doctor_id: '' },
      { report_type: 'Lipid Panel', report_date: '2027-01-01', doctor_id: 'someone-else' },
      { today: '2026-05-01', doctorIds: new Set([DOCTOR]) },
    );
    expect(next).toEqual({ report_type: 'Lipid Panel', report_date: '2026-01-01', doctor_id: '' });
  });
});

function mockWidth(wide: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: wide,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
}

describe('history', () => {
  afterEach(() => {
    Reflect.deleteProperty(window, 'matchMedia');
  });

  it('shows the empty state with a way to upload, and none without AddLabReport', async () => {
    const { unmount } = render(<LabReportsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    expect(await screen.findByText('No reports found.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Lab Report History' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Upload Report' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Upload a report' }));
    expect(await screen.findByRole('heading', { name: 'Upload Lab Report' })).toBeTruthy();
    unmount();
    render(
      <LabReportsPage
        patientId={PATIENT}
        caregiverId="cg"
        can={{ add: false, edit: false, delete: false }}
      />,
    );
    expect(await screen.findByText('No reports found.')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Upload Report' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Upload a report' })).toBeNull();
  });

  it('lists cards on a phone and a table on a wide screen; actions follow permissions', async () => {
    await db.lab_reports.add(report('a', { doctor_id: DOCTOR }));
    const { unmount } = render(
      <LabReportsPage
        patientId={PATIENT}
        caregiverId="cg"
        can={{ add: false, edit: false, delete: false }}
      />,
    );
    const card = (await screen.findByRole('heading', { name: 'Lipid Panel' })).closest('li') as HTMLElement;
    expect(card.textContent).toContain('Report Date:2026/03/14');
    expect(card.textContent).toContain('Doctor:Dr. Ada Lovelace');
    // The type is the card's heading, and is not said again among its facts.
    expect(card.textContent?.match(/Lipid Panel/g)?.length).toBe(1);
    expect(within(card).getByRole('button', { name: 'Preview Lipid Panel of 2026/03/14' })).toBeTruthy();
    expect(within(card).queryByRole('button', { name: /Edit|Delete/ })).toBeNull();
    unmount();

    mockWidth(true);
    render(<LabReportsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Uploaded Date', 'Doctor', 'Report Type', 'Action']);
    expect(within(table).getByRole('button', { name: 'Edit Lipid Panel of 2026/03/14' })).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: 'Delete Lipid Panel of 2026/03/14' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Deletion' });
    expect(dialog.textContent).toContain(
      'Are you sure you want to delete lab report? This action cannot be undone.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(async () => expect(await db.lab_reports.get('a')).toBeUndefined());
  });

  it('filters by doctor 500 ms after the choice; Clear Filters brings all back', async () => {
    await db.lab_reports.bulkAdd([
      report('a', { doctor_id: DOCTOR, report_type: 'With doctor' }),
      report('b', { report_type: 'Without doctor', report_date: '2026-01-02' }),
    ]);
    render(<LabReportsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    await screen.findByRole('heading', { name: 'Without doctor' });
    const filters = screen.getByRole('form', { name: 'Filter lab reports' });
    expect((within(filters).getByLabelText('Doctor') as HTMLSelectElement).options[0]?.text).toBe(
      'All Doctors',
    );
    fireEvent.change(within(filters).getByLabelText('Doctor'), { target: { value: DOCTOR } });
    // Not at once: the filter waits for the person to stop changing it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('heading', { name: 'Without doctor' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Without doctor' })).toBeNull(), {
      timeout: 1500,
    });
    expect(screen.getByRole('heading', { name: 'With doctor' })).toBeTruthy();
    fireEvent.change(within(filters).getByLabelText('Date Range start'), {
      target: { value: '2026-04-01' },
    });
    // The chosen date as the filters write it.
    expect(within(filters).getByText('2026/04/01')).toBeTruthy();
    expect(await screen.findByText('No reports found.', {}, { timeout: 1500 })).toBeTruthy();
    fireEvent.click(within(filters).getByRole('button', { name: 'Clear Filters' }));
    expect(await screen.findByRole('heading', { name: 'Without doctor' }, { timeout: 1500 })).toBeTruthy();
  });

  it('says which reports wait to upload, are ready to review (Edit opens the review), or failed', async () => {
    await db.lab_reports.bulkAdd([
      report('w', { report_type: 'Waiting', attachment_key: 'blob:abc' }),
      report('r', { report_type: 'Ready' }),
      report('f', { report_type: 'Failed' }),
    ]);
    const job = { patient_id: PATIENT, updated_at: '2026-03-15T10:00:00Z' };
    await db.labExtractions.bulkAdd([
      { ...job, report_id: 'w', state: 'waiting', extraction: null, message: null },
      { ...job, report_id: 'r', state: 'ready', extraction, message: LAB_REPORT_MESSAGES.readyToReview },
      { ...job, report_id: 'f', state: 'failed', extraction: null, message: 'Upload error: too dark' },
    ]);
    render(<LabReportsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    const cardOf = async (name: string) =>
      (await screen.findByRole('heading', { name })).closest('li') as HTMLElement;
    expect((await cardOf('Waiting')).textContent).toContain('Waiting to upload');
    expect((await cardOf('Failed')).textContent).toContain('Upload error: too dark');
    expect(within(await cardOf('Failed')).getByRole('button', { name: /Read .* again/ })).toBeTruthy();
    const ready = await cardOf('Ready');
    expect(ready.textContent).toContain('Ready to review');
    fireEvent.click(within(ready).getByRole('button', { name: /^Edit/ }));
    const form = await screen.findByRole('form', { name: 'Edit lab report' });
    expect(form.textContent).toContain(LAB_REPORT_MESSAGES.review);
    expect(within(form).getByRole('button', { name: 'View Lab Report' })).toBeTruthy();
    expect(within(form).queryByLabelText(/Report file/)).toBeNull();
    const rows = within(form).getAllByRole('group', { name: /^Result \d/ });
    expect(rows).toHaveLength(2);
    const sodium = rows[1]?.closest('li') as HTMLElement;
    expect(sodium.dataset.needsReview).toBe('true');
    expect(sodium.textContent).toContain('The decimal point may have been missed.');
    fireEvent.change(within(sodium).getByLabelText('Value'), { target: { value: '141' } });
    expect(sodium.dataset.needsReview).toBeUndefined();
    fireEvent.click(within(form).getByRole('button', { name: 'Submit' }));
    await waitFor(async () => expect((await db.lab_reports.get('r'))?.results).toHaveLength(2));
    expect(toasts.success).toHaveBeenCalledWith('Lab report updated successfully');
    expect((await db.lab_reports.get('r'))?.results[1]).toMatchObject({ name: 'Sodium', value: '141' });
    expect(await db.labExtractions.get('r')).toBeUndefined();
    expect(await screen.findByRole('heading', { name: 'Lab Report History' })).toBeTruthy();
  });

  it('charts a test across reports with its reference band', async () => {
    await db.lab_reports.bulkAdd([
      report('a', { report_date: '2026-01-01', results: [glucose('90')] }),
      report('b', { report_date: '2026-02-01', results: [glucose('120', 'H')] }),
      report('c', { report_date: '2026-03-01', results: [glucose('95')] }),
    ]);
    render(<LabReportsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Trends' }));
    const trend = await screen.findByTestId('lab-trend');
    expect(within(trend).getAllByTestId('trend-point')).toHaveLength(3);
    expect(within(trend).getByTestId('trend-band')).toBeTruthy();
    expect(trend.querySelectorAll('[data-outside="high"]')).toHaveLength(1);
    expect(within(trend).getByTestId('trend-summary').textContent).toContain('reference range 70-99 mg/dL');
    expect(within(trend).getByRole('table').textContent).toContain('High');
    // Dates under the chart nobody misreads (the table has them in full).
    expect(within(trend).getByText('Jan 1 2026')).toBeTruthy();
    expect(within(trend).getByText('Mar 1 2026')).toBeTruthy();
  });
});

describe('upload', () => {
  const pdf = () => new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' });

  it('names what is missing when submitted empty', async () => {
    render(<LabReportsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Upload Report' }));
    const form = await screen.findByRole('form', { name: 'Upload lab report' });
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByLabelText(/Report file/)));
    expect(
      within(form)
        .getByRole('textbox', { name: /Report Type/ })
        .getAttribute('placeholder'),
    ).toBe('e.g. Blood Test');
    expect((within(form).getByLabelText('Doctor') as HTMLSelectElement).options[0]?.text).toBe(
      '--- Select Doctor ---',
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(await within(form).findByText('Report file is required')).toBeTruthy();
    expect(within(form).getByText('Report Date is required')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText(/Report Date/), { target: { value: '2999-01-01' } });
    expect(within(form).getByText('Report Date cannot be in the future.')).toBeTruthy();
    expect(await db.lab_reports.count()).toBe(0);
  });

  it('online: uploads, reads, prefills for review, and saves with the uploaded key', async () => {
    let progress: ((percent: number) => void) | undefined;
    let finishUpload: (key: string) => void = () => undefined;
    ocr.upload.mockImplementation(
      (_file: Blob, options: { onProgress?: (percent: number) => void }) =>
        new Promise<string>((resolve) => {
          progress = options.onProgress;
          finishUpload = resolve;
        }),
    );
    let finishRead: (data: LabReportOcrData) => void = () => undefined;
    ocr.extract.mockImplementation(() => new Promise((resolve) => (finishRead = resolve)));
    render(<LabReportsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Upload Report' }));
    const form = await screen.findByRole('form', { name: 'Upload lab report' });
    fireEvent.change(within(form).getByLabelText(/Report file/), { target: { files: [pdf()] } });
    expect(await within(form).findByText(LAB_REPORT_MESSAGES.uploading)).toBeTruthy();
    progress?.(40);
    await waitFor(() =>
      expect(
        within(form).getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow'),
      ).toBe('40'),
    );
    finishUpload('lab/0123456789abcdef0123456789abcdef.pdf');
    expect(await within(form).findByText(LAB_REPORT_MESSAGES.analyzing)).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Submit' }).hasAttribute('disabled')).toBe(true);
    finishRead(extraction);
    expect(await within(form).findByText(LAB_REPORT_MESSAGES.review)).toBeTruthy();
    expect(within(form).getByTestId('health-tip').textContent).toMatch(/^Tip:/);
    expect((within(form).getByRole('textbox', { name: /Report Type/ }) as HTMLInputElement).value).toBe(
      'Basic Metabolic Panel',
    );
    expect((within(form).getByLabelText(/Report Date/) as HTMLInputElement).value).toBe('2026-02-01');
    expect((within(form).getByLabelText('Doctor') as HTMLSelectElement).value).toBe(DOCTOR);
    fireEvent.click(within(form).getByRole('button', { name: /Looks right/ }));
    fireEvent.click(within(form).getByRole('button', { name: 'Submit' }));
    await waitFor(async () => expect(await db.lab_reports.count()).toBe(1));
    const [saved] = await db.lab_reports.toArray();
    expect(saved?.attachment_key).toBe('lab/0123456789abcdef0123456789abcdef.pdf');
    expect(saved?.results.map((row) => [row.name, row.needs_review ?? false])).toEqual([
      ['Glucose', false],
      ['Sodium', false],
    ]);
    expect(JSON.parse(saved?.report_ocr ?? '{}').doctor_name).toBe('Dr. Ada Lovelace');
    expect(toasts.success).toHaveBeenCalledWith('Lab report uploaded successfully');
    expect(await db.labExtractions.count()).toBe(0);
    expect(await screen.findByRole('heading', { name: 'Lab Report History' })).toBeTruthy();
  });

  it('shows the reason when the read fails, and lets the person fill it in', async () => {
    ocr.upload.mockResolvedValue('lab/0123456789abcdef0123456789abcdef.pdf');
    const { LabUploadError } = await import('../../../src/local/lab-report-ocr');
    ocr.extract.mockRejectedValue(new LabUploadError(LAB_REPORT_MESSAGES.notALabReport));
    render(<LabReportsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Upload Report' }));
    const form = await screen.findByRole('form', { name: 'Upload lab report' });
    fireEvent.change(within(form).getByLabelText(/Report file/), { target: { files: [pdf()] } });
    expect(await within(form).findByText(LAB_REPORT_MESSAGES.notALabReport)).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('offline: says it will be read later, and saves the file on the device to read once uploaded', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    render(<LabReportsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Upload Report' }));
    const form = await screen.findByRole('form', { name: 'Upload lab report' });
    fireEvent.change(within(form).getByLabelText(/Report file/), { target: { files: [pdf()] } });
    expect(await within(form).findByText(LAB_REPORT_MESSAGES.extractionOffline)).toBeTruthy();
    expect(ocr.upload).not.toHaveBeenCalled();
    fireEvent.change(within(form).getByRole('textbox', { name: /Report Type/ }), {
      target: { value: 'CBC' },
    });
    fireEvent.change(within(form).getByLabelText(/Report Date/), { target: { value: '2026-01-05' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Submit' }));
    await waitFor(async () => expect(await db.lab_reports.count()).toBe(1));
    const [saved] = await db.lab_reports.toArray();
    expect(saved?.attachment_key?.startsWith('blob:')).toBe(true);
    expect((await db.labExtractions.get(saved?.id ?? ''))?.state).toBe('waiting');
    const card = (await screen.findByRole('heading', { name: 'CBC' })).closest('li') as HTMLElement;
    expect(card.textContent).toContain('Waiting to upload');
  });
});
