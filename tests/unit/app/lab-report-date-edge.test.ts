import { describe, expect, it } from 'vitest';
import { LAB_REPORT_MESSAGES } from '../../../src/domain/lab-reports';
import { checkLabForm, EMPTY_LAB_FORM } from '../../../src/app/features/lab-reports/lab-report-form-values';

// On the device the person's own day is known: a report dated today is fine, one dated tomorrow is in the
// future (the server, which does not know the person's zone, allows one day more).

const check = (report_date: string, today: string) =>
  checkLabForm(
    { ...EMPTY_LAB_FORM, report_type: 'Blood Test', report_date },
    { today, hasFile: true, results: [] },
  ).report_date;

describe('the lab report form at the edge of today', () => {
  it('takes today and refuses tomorrow, across the end of a month and a year', () => {
    expect(check('2026-11-27', '2026-11-27')).toBeUndefined();
    expect(check('2026-11-28', '2026-11-27')).toBe(LAB_REPORT_MESSAGES.reportDateFuture);
    expect(check('2026-11-30', '2026-11-30')).toBeUndefined();
    expect(check('2026-12-01', '2026-11-30')).toBe(LAB_REPORT_MESSAGES.reportDateFuture);
    expect(check('2026-12-31', '2026-12-31')).toBeUndefined();
    expect(check('2027-01-01', '2026-12-31')).toBe(LAB_REPORT_MESSAGES.reportDateFuture);
  });
});
