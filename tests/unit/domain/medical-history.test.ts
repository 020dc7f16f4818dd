import { describe, expect, it } from 'vitest';
import {
  assembledHistory,
  assembleHistory,
  entryPatch,
  MEDICAL_HISTORY_MESSAGES as M,
  medicalHistoryId,
  partialDateSchema,
  putMedicalHistoryBodySchema,
  removalPatch,
  storedPatchOf,
  type HistoryEntry,
} from '../../../src/domain/medical-history';

// The medical history's rules: the record id made from the patient, the dates people
// know (a year, a month or a day), the lists' limits, the PUT body (entry fields and whole lists), the one
// assembler of stored entry fields into lists, and what a save stores.

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

const ID = '0b8e4b6e-6a8a-4c1e-9a43-0c3a2b1e5f10';
const OTHER = '0b8e4b6e-6a8a-4c1e-9a43-0c3a2b1e5f11';
const latex = { id: ID, substance: 'Latex', reaction: '', severity: 'mild' as const };
const dust = { id: OTHER, substance: 'Dust', reaction: '', severity: 'moderate' as const };

describe('the PUT body', () => {
  it('takes any of the lists whole alone, and fills an entry’s defaults', () => {
    const parsed = putMedicalHistoryBodySchema.parse({ conditions: [{ id: ID, name: ' Asthma ' }] });
    expect(parsed).toEqual({
      lists: { conditions: [{ id: ID, name: 'Asthma', onset: null, status: 'active', notes: '' }] },
      entries: {},
    });
    expect(putMedicalHistoryBodySchema.parse({})).toEqual({ lists: {}, entries: {} });
  });
  it('takes entry fields (an entry, or null), their ids in lower case, and leaves a device’s label out', () => {
    const parsed = putMedicalHistoryBodySchema.parse({
      [`allergies:${ID.toUpperCase()}`]: { ...latex, id: ID.toUpperCase() },
      [`immunizations:${OTHER}`]: null,
      label: 'Medical history: allergies',
      changed_at: 5,
    });
    expect(parsed).toEqual({
      changed_at: 5,
      lists: {},
      entries: { [`allergies:${ID}`]: latex, [`immunizations:${OTHER}`]: null },
    });
  });
  it.each([
    [{ [`allergy:${ID}`]: latex }, M.entryFieldInvalid],
    [{ 'allergies:1': latex }, M.entryFieldIdInvalid],
    [{ [`allergies:${ID}`]: [latex] }, M.entryValueInvalid],
    [{ [`allergies:${OTHER}`]: latex }, M.entryIdMismatch],
    [{ [`allergies:${ID}`]: { ...latex, substance: '' } }, M.substanceRequired],
    [{ [`allergies:${ID}`]: { ...latex, added_at: '2024-13-01' } }, M.addedAtInvalid],
    [{ allergies: [latex], [`allergies:${OTHER}`]: null }, M.listAndEntries],
  ])('refuses %o: %s', (body, message) => {
    expect(putMedicalHistoryBodySchema.safeParse(body).error?.issues[0]?.message).toBe(message);
  });
  it('refuses a duplicate entry id whatever its case', () => {
    const result = putMedicalHistoryBodySchema.safeParse({
      immunizations: [
        { id: ID, vaccine: 'Flu' },
        { id: ID.toUpperCase(), vaccine: 'Tetanus' },
      ],
    });
    expect(result.error?.issues[0]?.message).toBe(M.duplicateEntryId);
  });
});

describe('assembleHistory', () => {
  it('reads absent fields as empty, drops tombstones, orders by added_at then id', () => {
    const older = { ...dust, added_at: '2024-01-01T00:00:00.000Z' };
    const tiedLow = {
      ...latex,
      id: '00000000-0000-4000-8000-000000000001',
      added_at: '2024-05-01T00:00:00Z',
    };
    const tiedHigh = {
      ...latex,
      id: '00000000-0000-4000-8000-000000000002',
      added_at: '2024-05-01T00:00:00Z',
    };
    const history = assembleHistory({
      ...entryPatch('allergies', tiedHigh),
      ...entryPatch('allergies', older),
      ...entryPatch('allergies', tiedLow),
      ...removalPatch('conditions', ID),
    });
    expect(history.allergies).toEqual([older, tiedLow, tiedHigh]);
    expect(history.conditions).toEqual([]);
    expect(history.lifestyle).toEqual({
      smoking: 'unknown',
      alcohol: 'unknown',
      exercise: 'unknown',
      notes: '',
    });
  });
  it('reads whole lists (older records, the API’s form) as entries, an entry’s own field winning', () => {
    const record = {
      id: 'h',
      patient_id: 'p',
      version: 4,
      allergies: [latex, dust],
      ...removalPatch('allergies', OTHER),
      ...entryPatch('allergies', { ...latex, severity: 'severe' }),
      lifestyle: { smoking: 'never' },
    };
    const full = assembledHistory(record);
    expect(full).toMatchObject({ id: 'h', patient_id: 'p', version: 4 });
    expect(full.allergies).toEqual([{ ...latex, severity: 'severe' }]);
    expect(full.lifestyle.smoking).toBe('never');
    expect(Object.keys(full).some((field) => field.includes(':'))).toBe(false);
    // The assembled form read again is the same.
    expect(assembleHistory(full)).toEqual(assembleHistory(record));
  });
});

describe('storedPatchOf', () => {
  const save = (body: Record<string, unknown>) => putMedicalHistoryBodySchema.parse(body);
  it('makes a whole list exactly what was sent: nulls for the live entries not sent', () => {
    const keptAt = '2024-01-01T00:00:00.000Z';
    const stored = {
      ...entryPatch('allergies', { ...latex, added_at: keptAt }),
      ...removalPatch('allergies', OTHER),
    };
    const at = Date.parse('2025-01-01T00:00:00.000Z');
    const newOne: HistoryEntry<'allergies'> = { ...dust, id: '00000000-0000-4000-8000-000000000009' };
    expect(storedPatchOf(save({ allergies: [dust, newOne] }), stored, at)).toEqual({
      [`allergies:${OTHER}`]: { ...dust, added_at: '2025-01-01T00:00:00.000Z' },
      [`allergies:${newOne.id}`]: { ...newOne, added_at: '2025-01-01T00:00:00.001Z' },
      [`allergies:${ID}`]: null,
    });
  });
  it('keeps an edited entry’s added_at, and stores entry fields and the lifestyle as sent', () => {
    const keptAt = '2024-01-01T00:00:00.000Z';
    const stored = entryPatch('allergies', { ...latex, added_at: keptAt });
    const patch = storedPatchOf(
      save({ [`allergies:${ID}`]: { ...latex, severity: 'severe' }, lifestyle: { smoking: 'former' } }),
      stored,
      0,
    );
    expect(patch).toEqual({
      [`allergies:${ID}`]: { ...latex, severity: 'severe', added_at: keptAt },
      lifestyle: { smoking: 'former', alcohol: 'unknown', exercise: 'unknown', notes: '' },
    });
  });
  it('stores the sharing of the check-ins’ mood screening as sent, off when never said', () => {
    expect(storedPatchOf(save({ share_mood_screening: true }), {}, 0)).toEqual({
      share_mood_screening: true,
    });
    expect(storedPatchOf(save({ share_mood_screening: false }), {}, 0)).toEqual({
      share_mood_screening: false,
    });
    expect(
      putMedicalHistoryBodySchema.safeParse({ share_mood_screening: 'yes' }).error?.issues[0]?.message,
    ).toBe(M.shareMoodScreeningInvalid);
    expect(assembleHistory({}).share_mood_screening).toBe(false);
    expect(assembleHistory({ share_mood_screening: 'true' }).share_mood_screening).toBe(false);
    expect(assembleHistory({ share_mood_screening: true }).share_mood_screening).toBe(true);
  });
});
