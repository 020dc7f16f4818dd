import { describe, expect, it } from 'vitest';
import {
  MEDICAL_HISTORY_MESSAGES as M,
  medicalHistoryId,
  partialDateSchema,
  putMedicalHistoryBodySchema,
  withHistoryDefaults,
} from '../../../src/domain/medical-history';

// The medical history's rules (issue 14 point 2): the record id made from the patient, the dates people
// know (a year, a month or a day), the lists' limits, and a stored record read with every field.

const PATIENT = '7D1F1C1E-0000-4000-8000-000000000001';

describe('medicalHistoryId', () => {
  it('is one UUID per patient, the same whatever the case of the patient id', async () => {
    const id = await medicalHistoryId(PATIENT);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await medicalHistoryId(PATIENT.toLowerCase())).toBe(id);
    expect(await medicalHistoryId('7d1f1c1e-0000-4000-8000-000000000002')).not.toBe(id);
  });
});

describe('partial dates', () => {
  it.each(['1998', '2010-03', '2020-02-29', '1900-01-01'])('takes %s', (date) => {
    expect(partialDateSchema.safeParse(date).success).toBe(true);
  });
  it.each([
    ['2021-02-29', M.dateInvalid],
    ['2020-00', M.dateInvalid],
    ['2020-13-01', M.dateInvalid],
    ['20-01-01', M.dateInvalid],
    ['1899', M.dateInvalid],
    ['March 2020', M.dateInvalid],
    ['2999-01', M.dateInFuture],
  ])('refuses %s: %s', (date, message) => {
    const result = partialDateSchema.safeParse(date);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe('the PUT body', () => {
  it('takes any of the fields alone, and fills an entry’s defaults', () => {
    const parsed = putMedicalHistoryBodySchema.parse({
      conditions: [{ id: '0b8e4b6e-6a8a-4c1e-9a43-0c3a2b1e5f10', name: ' Asthma ' }],
    });
    expect(parsed).toEqual({
      conditions: [
        {
          id: '0b8e4b6e-6a8a-4c1e-9a43-0c3a2b1e5f10',
          name: 'Asthma',
          onset: null,
          status: 'active',
          notes: '',
        },
      ],
    });
    expect(putMedicalHistoryBodySchema.parse({})).toEqual({});
  });
  it('refuses a duplicate entry id whatever its case', () => {
    const id = '0b8e4b6e-6a8a-4c1e-9a43-0c3a2b1e5f10';
    const result = putMedicalHistoryBodySchema.safeParse({
      immunizations: [
        { id, vaccine: 'Flu' },
        { id: id.toUpperCase(), vaccine: 'Tetanus' },
      ],
    });
    expect(result.error?.issues[0]?.message).toBe(M.duplicateEntryId);
  });
});

describe('withHistoryDefaults', () => {
  it('reads absent fields as empty, and keeps what is stored', () => {
    const full = withHistoryDefaults({
      id: 'h',
      patient_id: 'p',
      version: 4,
      allergies: [{ id: 'a', substance: 'Latex', reaction: '', severity: 'mild' }],
    });
    expect(full.allergies).toHaveLength(1);
    expect(full.conditions).toEqual([]);
    expect(full.lifestyle).toEqual({
      smoking: 'unknown',
      alcohol: 'unknown',
      exercise: 'unknown',
      notes: '',
    });
  });
});
