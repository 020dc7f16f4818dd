import { describe, expect, it } from 'vitest';
import type { Appointment } from '../../../src/domain/appointments';
import { visitSummary, type VisitSummaryInput } from '../../../src/domain/visit-summary';
import { MAX_PAGES, visitSummaryPdf } from '../../../src/local/visit-summary-pdf';
import { pdfPages } from '../../fixtures/pdf-text';
import {
  SUMMARY_PATIENT_ID,
  summaryDoctors,
  summaryHistory,
  summaryLabReports,
  summaryPrescriptions,
  summaryVitals,
} from '../../fixtures/summary-records';

// The visit summary: its sections from the patient's records, and the PDF the device makes of it, read
// back with pdf.js: every section's words are in it, flags are words (a black-and-white printout shows no
// colour), and it stays within two pages, saying what did not fit.

const appointment = (title: string, date: string, fields: Partial<Appointment> = {}): Appointment =>
  ({
    id: `a-${title}`,
    patient_id: SUMMARY_PATIENT_ID,
    version: 1,
    appointment_title: title,
    appointment_date: date,
    doctor_id: null,
    location: 'Springfield Clinic',
    notes: '',
    status: 'scheduled',
    attachment_key: null,
    time_zone: 'America/Chicago',
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...fields,
  }) as Appointment;

const input: VisitSummaryInput = {
  profile: { name: 'Pat O’Brien', birth_date: '1958-03-14', age: 68, phone: '217-555-0199' },
  history: summaryHistory,
  prescriptions: summaryPrescriptions,
  caregivers: [],
  doctors: summaryDoctors,
  labReports: summaryLabReports,
  vitals: summaryVitals,
  appointments: [
    appointment('Diabetes check', '2026-12-02T16:00:00.000Z'),
    appointment('Last month', '2026-10-02T16:00:00.000Z'),
    appointment('Cancelled one', '2026-12-05T16:00:00.000Z', { status: 'cancelled' }),
  ],
  now: new Date('2026-11-29T10:00:00.000Z'),
  shown: { zone: 'America/Chicago', viewerZone: 'America/Chicago', locale: 'en-US' },
};

const linesOf = (title: string) =>
  visitSummary(input)
    .sections.find((section) => section.title === title)
    ?.lines.map((line) => line.text);

describe('the visit summary', () => {
  it('lists the medicines taken now with their times and directions, allergies and open conditions', () => {
    expect(linesOf('Medicines taken now')).toEqual([
      'Albuterol HFA 90 mcg/actuation: as needed. Inhale 2 puffs every 4 hours as needed for wheezing',
      'Metformin 500 mg: 8:00 AM, 8:00 PM. Take 1 tablet twice a day with meals',
    ]);
    expect(linesOf('Allergies')).toEqual(['Penicillin: Hives · Life-threatening', 'Peanuts: Mild']);
    expect(linesOf('Conditions')).toEqual(['Type 2 diabetes, Managed, since 2019-06']);
  });

  it('gives the latest report’s results with flags in words, and says which were read and not checked', () => {
    const results = linesOf('Latest results') ?? [];
    expect(results[0]).toBe('Comprehensive Metabolic Panel, Wed, Oct 14, 2026, ordered by Dr. Maria Lopez');
    expect(results).toContain('Glucose: 105 mg/dL (range 70-99) HIGH');
    expect(results).toContain(
      'Platelets: 1,240 x10E3/uL (range 150-400) HIGH (read automatically, not yet checked)',
    );
    // The lipid panel is over a year old and in range: not listed.
    expect(results.join()).not.toContain('HDL');
  });

  it('gives the newest vital of each kind and the next appointments, not past or cancelled ones', () => {
    expect(linesOf('Recent vitals')).toContain('Weight: 82.7 kg - Sat, Nov 21, 2026, 7:30 AM');
    expect(linesOf('Next appointments')).toEqual([
      'Wed, Dec 02, 2026, 10:00 AM - Diabetes check - Springfield Clinic',
    ]);
    expect(linesOf('Who to call')).toEqual(['Maria Lopez - Internal Medicine - 217-555-0100']);
  });

  it('makes a PDF whose text holds every section, its flags in words', async () => {
    const pdf = await visitSummaryPdf(visitSummary(input));
    const pages = await pdfPages(new Uint8Array(await pdf.arrayBuffer()));
    expect(pages).toHaveLength(1);
    const text = pages.join('\n');
    for (const words of [
      'Visit summary',
      "Pat O'Brien",
      'Phone 217-555-0199',
      'Medicines taken now',
      'Metformin 500 mg',
      'Penicillin: Hives',
      'Type 2 diabetes',
      'Glucose: 105 mg/dL (range 70-99) HIGH',
      'Blood pressure: 132/84 mmHg',
      'Diabetes check',
      'Maria Lopez',
    ])
      expect(text).toContain(words);
  });

  it('stays within two pages however much there is, and says how much did not fit', async () => {
    const many = {
      ...input,
      labReports: [
        {
          ...summaryLabReports[0]!,
          results: Array.from({ length: 300 }, (_, index) => ({
            name: `Analyte ${index}`,
            value: '1',
            unit: 'mg/dL',
            flag: '' as const,
            reference_range: '0-2',
          })),
        },
      ],
    };
    const pages = await pdfPages(
      new Uint8Array(await (await visitSummaryPdf(visitSummary(many))).arrayBuffer()),
    );
    expect(pages).toHaveLength(MAX_PAGES);
    expect(pages[1]).toMatch(/\d+ more lines did not fit on 2 pages: see Kincare\./);
  });

  it('writes what the standard fonts cannot, rather than failing', async () => {
    const pdf = await visitSummaryPdf(
      visitSummary({ ...input, profile: { ...input.profile, name: '李 Wei ≥ µ' } }),
    );
    expect((await pdfPages(new Uint8Array(await pdf.arrayBuffer())))[0]).toContain('? Wei >= u');
  });
});
