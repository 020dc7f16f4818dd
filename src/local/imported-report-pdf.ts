import type { ImportedLabReport } from '../domain/record-import';

// Every lab report in Kincare has its file (the photo or PDF it was read from), and the lab report screens
// show it. A report imported from a portal's record file has none of its own, so the device makes one: a
// plain PDF of the report's rows as the file gave them, and where they came from. pdf-lib loads only when
// a report is imported.

const PAGE = { width: 612, height: 792, margin: 48 } as const;
const COLUMNS = [
  { title: 'Test', x: 48, width: 200 },
  { title: 'Result', x: 252, width: 90 },
  { title: 'Unit', x: 346, width: 70 },
  { title: 'Reference range', x: 420, width: 110 },
  { title: 'Flag', x: 534, width: 30 },
] as const;

/** The standard fonts write Latin-1 only: anything else (≥, µ) is spelt out or marked. */
function printable(text: string): string {
  return text
    .replace(/≥/g, '>=')
    .replace(/≤/g, '<=')
    .replace(/µ/g, 'u')
    .replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '?');
}

export async function importedReportPdf(report: ImportedLabReport, source: string): Promise<Blob> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const document = await PDFDocument.create();
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  let page = document.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const line = (
    text: string,
    x: number,
    size: number,
    font = regular,
    width = PAGE.width - x - PAGE.margin,
  ) => {
    let shown = printable(text);
    while (shown.length > 1 && font.widthOfTextAtSize(shown, size) > width) shown = shown.slice(0, -1);
    page.drawText(shown, { x, y, size, font, color: rgb(0, 0, 0) });
  };
  line(report.report_type, PAGE.margin, 16, bold);
  y -= 22;
  line(
    `Date: ${report.report_date}${report.doctor_name ? `   Ordered by: ${report.doctor_name}` : ''}`,
    PAGE.margin,
    11,
  );
  y -= 16;
  line(source, PAGE.margin, 10);
  y -= 26;
  const header = () => {
    for (const column of COLUMNS) line(column.title, column.x, 10, bold, column.width);
    y -= 16;
  };
  header();
  for (const row of report.results) {
    if (y < PAGE.margin) {
      page = document.addPage([PAGE.width, PAGE.height]);
      y = PAGE.height - PAGE.margin;
      header();
    }
    const cells = [row.name, row.value, row.unit, row.reference_range, row.flag];
    COLUMNS.forEach((column, index) => line(cells[index] ?? '', column.x, 10, regular, column.width));
    y -= 14;
  }
  const bytes = await document.save();
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' });
}
