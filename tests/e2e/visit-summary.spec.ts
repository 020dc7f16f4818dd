import { readFile } from 'node:fs/promises';
import { pdfPages } from '../fixtures/pdf-text';
import { expect, test } from './fixtures';
import { checkScreen, seedRecords } from './records';

// /visit-summary, from the medical ID: what the PDF will hold, shown at phone size; the PDF made on the
// device with no signal, its text read back. Each state: axe, no sideways scrolling, 44 px targets, at
// the phone's and the laptop's size.

const PHONE = { width: 390, height: 844 };

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, patientName: 'Vic Visit' });

  test('a patient makes a visit summary PDF with no signal, and it holds their records', async ({
    patientPage: page,
    patient,
    request,
  }) => {
    await seedRecords(request, patient.token, patient.patientId ?? '');
    await page.reload();
    await page.getByRole('link', { name: 'Medical ID' }).click();
    await page.getByRole('link', { name: 'Visit summary' }).click();
    await expect(page).toHaveURL(/\/visit-summary$/);
    const preview = page.getByRole('region', { name: 'What the PDF holds' });
    await expect(preview).toContainText('Vic Visit');
    await expect(preview).toContainText(
      'Metformin 500 mg: 8:00 AM, 8:00 PM. Take 1 tablet twice a day with meals',
    );
    await expect(preview).toContainText('Penicillin: Hives · Severe');
    await expect(preview).toContainText('Asthma, Active, since 2010');
    await expect(preview).toContainText('Blood pressure: 128/82 mmHg');
    await checkScreen(page);

    await page.context().setOffline(true);
    const saving = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    const file = await saving;
    expect(file.suggestedFilename()).toMatch(/^visit-summary-vic-visit-\d{4}-\d{2}-\d{2}\.pdf$/);
    await expect(
      page.getByRole('status').filter({ hasText: `Saved ${file.suggestedFilename()}.` }),
    ).toBeVisible();
    const text = (await pdfPages(new Uint8Array(await readFile(await file.path())))).join('\n');
    for (const words of [
      'Visit summary',
      'Vic Visit',
      'Metformin 500 mg',
      'Penicillin: Hives',
      'Asthma',
      'Blood pressure: 128/82 mmHg',
    ])
      expect(text).toContain(words);
    await page.context().setOffline(false);
  });

  test('where the browser can share files, the PDF goes to the share sheet', async ({
    patientPage: page,
    patient,
    request,
  }) => {
    // The system's share sheet, as a phone's browser offers it: what it is handed is kept to look at.
    await page.addInitScript(() => {
      const shared: { name: string; type: string; head: string }[] = [];
      Object.assign(window, { sharedFiles: shared });
      Object.defineProperty(navigator, 'canShare', {
        value: (data: { files?: File[] }) => Boolean(data.files),
      });
      Object.defineProperty(navigator, 'share', {
        value: async (data: { files: File[] }) => {
          for (const file of data.files)
            shared.push({ name: file.name, type: file.type, head: await file.slice(0, 5).text() });
        },
      });
    });
    await seedRecords(request, patient.token, patient.patientId ?? '');
    await page.goto('/visit-summary');
    await expect(page.getByRole('region', { name: 'What the PDF holds' })).toContainText('Penicillin');
    await checkScreen(page);
    await page.getByRole('button', { name: 'Share PDF' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Shared.' })).toBeVisible();
    const shared = await page.evaluate(() => (window as unknown as { sharedFiles: unknown[] }).sharedFiles);
    expect(shared).toEqual([
      {
        name: expect.stringMatching(/^visit-summary-vic-visit-\d{4}-\d{2}-\d{2}\.pdf$/),
        type: 'application/pdf',
        head: '%PDF-',
      },
    ]);
  });
});
