import { describe, expect, it } from 'vitest';
import {
  LABEL_MAX_LENGTH,
  MEDICINE_FORMS,
  readPrescriptionLabel,
  type LabelReading,
} from '../../../src/domain/prescription-label';

// The OCR text of a pharmacy label or a paper prescription prefills the prescription form. Each case
// is a label as OCR gives it, with every field the form should show.

const label = (...lines: string[]) => lines.join('\n');

const cases: [name: string, text: string, expected: Omit<LabelReading, 'fields_found'>][] = [
  [
    'a clean pharmacy label',
    label(
      'CVS/pharmacy #1234',
      '100 G STREET NW, WASHINGTON DC 20001  (202) 555-0100',
      'RX# 6012345          DATE: 01/15/2027',
      'JOHN DOE',
      'METFORMIN HCL 500 MG TABLET',
      'TAKE 1 TABLET BY MOUTH TWICE DAILY WITH MEALS',
      'QTY: 60     REFILLS: 2',
      'DR. JANE SMITH',
    ),
    {
      medicine_name: 'Metformin HCl',
      strength: '500 mg',
      form: 'tablet',
      directions: 'Take 1 tablet by mouth twice daily with meals',
      quantity: 60,
      refills: 2,
      prescriber: 'Dr. Jane Smith',
      pharmacy: 'CVS Pharmacy',
      rx_number: '6012345',
    },
  ],
  [
    'noisy OCR: O for 0, l for I and 1, extra blank lines, the directions over two lines',
    label(
      '',
      'WALGREENS #O4521',
      '',
      'RX 6O12345-O1',
      '',
      'METFORMlN HCL 5OO MG TABLET',
      '',
      'TAKE l TABLET BY MOUTH TWICE',
      'DAILY WITH FOOD',
      '',
      'QTY: 6O',
      'REFILLS: O',
      'PRESCRIBER: SMITH, JANE MD',
      '',
    ),
    {
      medicine_name: 'Metformin HCl',
      strength: '500 mg',
      form: 'tablet',
      directions: 'Take 1 tablet by mouth twice daily with food',
      quantity: 60,
      refills: 0,
      prescriber: 'Dr. Jane Smith',
      pharmacy: 'Walgreens',
      rx_number: '6012345-01',
    },
  ],
  [
    'a paper prescription',
    label(
      'Alan Grant, MD',
      'Springfield Family Practice',
      'Patient: Mary Jones   DOB: 02/03/1950',
      'Rx: Lisinopril 10 mg',
      'Sig: 1 po qd',
      'Disp: #30',
      'Refills: 3',
      'Prescriber: Dr. Alan Grant',
    ),
    {
      medicine_name: 'Lisinopril',
      strength: '10 mg',
      form: null,
      directions: '1 po qd',
      quantity: 30,
      refills: 3,
      prescriber: 'Dr. Alan Grant',
      pharmacy: null,
      rx_number: null,
    },
  ],
  [
    'a lower-case label with a liquid and no refills',
    label(
      'rite aid pharmacy 05123',
      'rx no: 7788123',
      'amoxicillin 250mg/5ml suspension',
      'give 5 ml by mouth three times a day',
      'for 10 days until finished',
      'qty 150 ml',
      'no refills',
      "prescribed by: dr. o'brien-kelly",
    ),
    {
      medicine_name: 'Amoxicillin',
      strength: '250 mg/5 mL',
      form: 'liquid',
      directions: 'Give 5 mL by mouth three times a day for 10 days until finished',
      quantity: 150,
      refills: 0,
      prescriber: "Dr. O'Brien-Kelly",
      pharmacy: 'Rite Aid',
      rx_number: '7788123',
    },
  ],
  [
    'a local pharmacy, stray punctuation and an inhaler',
    label(
      '* SUNRISE PHARMACY  12 OAK AVE *',
      'Rx #: 55-10234',
      '|| ALBUTEROL SULFATE HFA 90 MCG/ACTUATION INHALER ||',
      'INHALE 2 PUFFS BY MOUTH EVERY 4 TO 6 HOURS AS NEEDED',
      'FOR WHEEZING',
      'Quantity: 1',
      'Refills remaining: l',
      'Prescriber: Jane Smith, NP',
    ),
    {
      medicine_name: 'Albuterol Sulfate',
      strength: '90 mcg/actuation',
      form: 'inhaler',
      directions: 'Inhale 2 puffs by mouth every 4 to 6 hours as needed for wheezing',
      quantity: 1,
      refills: 1,
      prescriber: 'Jane Smith, NP',
      pharmacy: 'Sunrise Pharmacy',
      rx_number: '55-10234',
    },
  ],
  [
    'a strength on a line of its own, a decimal and a release form',
    label(
      'Kroger Pharmacy',
      'LEVOTHYROXINE SODIUM',
      '.O88 MG TAB',
      'Take 1 tablet by mouth every morning',
      'on an empty stomach',
      'Qty 90',
      '1 refill',
    ),
    {
      medicine_name: 'Levothyroxine Sodium',
      strength: '0.088 mg',
      form: 'tablet',
      directions: 'Take 1 tablet by mouth every morning on an empty stomach',
      quantity: 90,
      refills: 1,
      prescriber: null,
      pharmacy: 'Kroger Pharmacy',
      rx_number: null,
    },
  ],
  [
    'a cream with a percentage and a release word after the strength',
    label(
      'Hometown Pharmacies Inc',
      'HYDROCORTISONE 1% CREAM',
      'Apply a thin layer to the affected area twice daily',
      'Disp: 30 g',
      'Refills: none',
    ),
    {
      medicine_name: 'Hydrocortisone',
      strength: '1%',
      form: 'cream',
      directions: 'Apply a thin layer to the affected area twice daily',
      quantity: 30,
      refills: 0,
      prescriber: null,
      pharmacy: 'Hometown Pharmacies',
      rx_number: null,
    },
  ],
  [
    'a combination medicine, an extended-release name and a capsule from the directions',
    label(
      'Walmart Pharmacy 10-2345',
      'VENLAFAXINE 75 MG ER',
      '1 CAP PO QD WITH FOOD',
      'QTY 30 (THIRTY)',
      '5 REFILLS BEFORE 03/01/2028',
      'Dr Priya Patel',
    ),
    {
      medicine_name: 'Venlafaxine ER',
      strength: '75 mg',
      form: 'capsule',
      directions: '1 cap po qd with food',
      quantity: 30,
      refills: 5,
      prescriber: 'Dr. Priya Patel',
      pharmacy: 'Walmart Pharmacy',
      rx_number: null,
    },
  ],
  [
    'two ingredients and eye drops',
    label(
      'HYDROCODONE-ACETAMINOPHEN 5-325 MG TABLET',
      'Take 1 tablet every 6 hours as needed for pain',
      'Qty: 20   Refills: 0',
    ),
    {
      medicine_name: 'Hydrocodone-Acetaminophen',
      strength: '5-325 mg',
      form: 'tablet',
      directions: 'Take 1 tablet every 6 hours as needed for pain',
      quantity: 20,
      refills: 0,
      prescriber: null,
      pharmacy: null,
      rx_number: null,
    },
  ],
  [
    'eye drops',
    label('LATANOPROST 0.005% OPHTHALMIC SOLUTION', 'Instill 1 drop in each eye at bedtime', 'Disp: 2.5 mL'),
    {
      medicine_name: 'Latanoprost',
      strength: '0.005%',
      form: 'drops',
      directions: 'Instill 1 drop in each eye at bedtime',
      quantity: 2.5,
      refills: null,
      prescriber: null,
      pharmacy: null,
      rx_number: null,
    },
  ],
];

describe('reading a prescription label', () => {
  it.each(cases)('reads %s', (_, text, expected) => {
    const fieldsFound = Object.values(expected).filter((value) => value !== null).length;
    expect(readPrescriptionLabel(text)).toEqual({ ...expected, fields_found: fieldsFound });
  });

  it('does not take an address for the medicine', () => {
    const reading = readPrescriptionLabel(label('Dr. Ann Lee', '100 G Street NW', 'Rx: Lisinopril 10 mg'));
    expect(reading).toMatchObject({
      medicine_name: 'Lisinopril',
      strength: '10 mg',
      prescriber: 'Dr. Ann Lee',
    });
  });

  it('only gives forms from the list', () => {
    for (const [, text] of cases) {
      const { form } = readPrescriptionLabel(text);
      expect(form === null || MEDICINE_FORMS.includes(form)).toBe(true);
    }
  });

  it('finds nothing in text that is not a label, and never throws', () => {
    const nothing = {
      medicine_name: null,
      strength: null,
      form: null,
      directions: null,
      quantity: null,
      refills: null,
      prescriber: null,
      pharmacy: null,
      rx_number: null,
      fields_found: 0,
    };
    for (const text of ['', '   \n\n  ', 'Lorem ipsum dolor sit amet', '!!! ### ***', '\u0000\u0007\uD800']) {
      expect(readPrescriptionLabel(text)).toEqual(nothing);
    }
    expect(readPrescriptionLabel(undefined as unknown as string)).toEqual(nothing);
  });

  it(`reads only the first ${LABEL_MAX_LENGTH} characters, quickly`, () => {
    const padding = 'x'.repeat(LABEL_MAX_LENGTH);
    expect(readPrescriptionLabel(`${padding}\nLISINOPRIL 10 MG TABLET`).medicine_name).toBeNull();
    const started = performance.now();
    const reading = readPrescriptionLabel(`LISINOPRIL 10 MG TABLET\n${'QTY 1O 2O 3O ...\n'.repeat(5000)}`);
    expect(reading.medicine_name).toBe('Lisinopril');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
