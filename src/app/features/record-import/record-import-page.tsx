import { useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { IMPORT_KINDS, type ImportKind, type ImportPreview } from '../../../domain/record-import';
import { alreadyKnown } from '../../../domain/record-import-matching';
import { patientTimeZoneOf } from '../../../local/appointment-reads';
import { hasUserDb, userDb } from '../../../local/db';
import {
  addImported,
  ImportError,
  knownRecordsOf,
  previewRecordFile,
  type ImportChoices,
} from '../../../local/record-import';
import { Button } from '../../ui/button';
import { CheckboxField, FileField } from '../../ui/fields';
import { FormAlert } from '../../ui/form-alert';
import { Card, NoPatientSelected, PageTitle } from '../../ui/page';
import { useOnline } from '../../ui/use-online';
import { sourceNoteOf } from './import-items';
import { ImportReview, type Ticks } from './import-review';

// /medical-history/import: a record file from a patient portal (a C-CDA document or a FHIR file), read by
// the server, reviewed here and added item by item through the device's write path. Reading needs a
// connection (the screen says so offline); adding does not. What is already in Kincare is marked and left
// unticked, so adding the same file twice adds nothing the second time.

type Props = {
  patientId: string | null;
  /** The patient's name, to compare with the file's. */
  patientName: string;
  /** A caregiver adding for the patient; null: the patient. */
  caregiverId: string | null;
};

type Step =
  | { at: 'choose'; error: string | null }
  | { at: 'reading' }
  | { at: 'review'; preview: ImportPreview }
  | { at: 'done'; added: number };

const noTicks = (): Ticks =>
  Object.fromEntries(IMPORT_KINDS.map((kind) => [kind, new Set<number>()])) as Ticks;

const NO_CHOICES = { severities: {}, startDates: {} };

export function RecordImportPage({ patientId, patientName, caregiverId }: Props) {
  const online = useOnline();
  const [file, setFile] = useState<File | undefined>();
  const [step, setStep] = useState<Step>({ at: 'choose', error: null });
  const [ticks, setTicks] = useState<Ticks>(noTicks);
  const [choices, setChoices] = useState<Pick<ImportChoices, 'severities' | 'startDates'>>(NO_CHOICES);
  const [confirmedPerson, setConfirmedPerson] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);

  const knownRecords = useLiveQuery(
    async () => (patientId && hasUserDb() ? knownRecordsOf(userDb(), patientId) : null),
    [patientId],
  );
  const preview = step.at === 'review' ? step.preview : null;
  const known = useMemo(
    () => (preview && knownRecords ? alreadyKnown(preview, knownRecords) : null),
    [preview, knownRecords],
  );

  const title = (
    <PageTitle description="Add records from a file your patient portal gives you: a C-CDA document (.xml) or a FHIR file (.json).">
      Import records
    </PageTitle>
  );
  if (!patientId) return <NoPatientSelected title="Import records" />;

  async function read() {
    if (!file) return;
    setStep({ at: 'reading' });
    try {
      const found = await previewRecordFile(file, {
        patientId: caregiverId ? (patientId ?? undefined) : undefined,
        // The patient's zone: a file's UTC times are dated as the patient lived them.
        zone: patientId && hasUserDb() ? await patientTimeZoneOf(userDb(), patientId) : undefined,
      });
      const records = patientId && hasUserDb() ? await knownRecordsOf(userDb(), patientId) : null;
      const marked = records ? alreadyKnown(found, records) : null;
      const ticked = noTicks();
      for (const kind of IMPORT_KINDS)
        found[kind].forEach((_item, index) => {
          if (found.may_add[kind] && marked?.[kind][index] !== true) ticked[kind].add(index);
        });
      setTicks(ticked);
      setChoices(NO_CHOICES);
      setConfirmedPerson(false);
      setProblems({});
      setAddError(null);
      setStep({ at: 'review', preview: found });
    } catch (error) {
      setStep({
        at: 'choose',
        error: error instanceof ImportError ? error.message : 'The file could not be read.',
      });
    }
  }

  const tickedCount = IMPORT_KINDS.reduce((sum, kind) => sum + ticks[kind].size, 0);

  async function add(found: ImportPreview) {
    const missing: Record<string, string> = {};
    for (const index of ticks.allergies)
      if (found.allergies[index]?.severity === null && !choices.severities[index])
        missing[`allergies:${index}`] = 'Choose a severity before adding this allergy.';
    for (const index of ticks.prescriptions)
      if (
        found.prescriptions[index]?.start_date === null &&
        !/^\d{4}-\d{2}-\d{2}$/.test(choices.startDates[index] ?? '')
      )
        missing[`prescriptions:${index}`] = 'Enter when this medicine was started before adding it.';
    setProblems(missing);
    if (Object.keys(missing).length > 0) {
      setAddError('Some ticked items need a detail the file does not give (marked below).');
      return;
    }
    setAdding(true);
    setAddError(null);
    try {
      const picked = Object.fromEntries(
        IMPORT_KINDS.map((kind) => [kind, [...ticks[kind]].sort((a, b) => a - b)]),
      ) as Record<ImportKind, number[]>;
      const added = await addImported(userDb(), {
        patientId: patientId ?? '',
        caregiverId,
        preview: found,
        choices: { ...picked, ...choices },
        sourceNote: sourceNoteOf(found),
      });
      setStep({ at: 'done', added });
    } catch (error) {
      setAddError(error instanceof Error ? error.message : 'The records could not be added.');
    } finally {
      setAdding(false);
    }
  }

  return (
    <>
      {title}
      {step.at === 'choose' || step.at === 'reading' ? (
        <Card className="grid gap-3">
          {!online ? (
            <p role="status" className="text-text">
              You are offline. Reading a file needs a connection; your records on this device are safe.
            </p>
          ) : null}
          <FileField
            label="Record file"
            accept=".xml,.json,application/xml,text/xml,application/json,application/fhir+json"
            hint="Download it from your patient portal (often under “Download my record” or “Health summary”)."
            error={step.at === 'choose' ? step.error : null}
            onChoose={(chosen) => {
              setFile(chosen);
              setStep({ at: 'choose', error: null });
            }}
          />
          <div>
            <Button disabled={!file || !online || step.at === 'reading'} onClick={() => void read()}>
              {step.at === 'reading' ? 'Reading…' : 'Read file'}
            </Button>
          </div>
          {step.at === 'reading' ? <p role="status">Reading your file…</p> : null}
        </Card>
      ) : null}
      {step.at === 'review' && known ? (
        <div className="grid gap-4">
          <Card as="section" aria-labelledby="import-source">
            <h2 id="import-source" className="text-heading text-text">
              {step.preview.source.title ?? 'Record file'}
            </h2>
            <p className="text-muted">
              {[
                step.preview.source.organization,
                step.preview.source.author,
                step.preview.source.patient_name && `About ${step.preview.source.patient_name}`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
          </Card>
          {step.preview.patient_matches !== true ? (
            <Card as="section" className="grid gap-2" aria-labelledby="import-person">
              <h2 id="import-person" className="text-heading text-text">
                {step.preview.patient_matches === false
                  ? 'This file may be someone else’s'
                  : 'This file does not say whose records these are'}
              </h2>
              {step.preview.patient_matches === false ? (
                <p>
                  The file is about {step.preview.source.patient_name}, and you are adding to {patientName}’s
                  records.
                </p>
              ) : null}
              <CheckboxField checked={confirmedPerson} onChange={setConfirmedPerson}>
                These records are {patientName}’s: add them anyway
              </CheckboxField>
            </Card>
          ) : null}
          {IMPORT_KINDS.every((kind) => !step.preview.may_add[kind]) ? (
            <p role="status" className="font-semibold text-text">
              Your permissions do not let you add any of these records for {patientName}. You can ask for more
              under Permission Requests.
            </p>
          ) : null}
          <ImportReview
            preview={step.preview}
            known={known}
            ticks={ticks}
            onTick={(kind, index, ticked) =>
              setTicks((current) => {
                const next = { ...current, [kind]: new Set(current[kind]) };
                if (ticked) next[kind].add(index);
                else next[kind].delete(index);
                return next;
              })
            }
            choices={choices}
            onChoose={setChoices}
            problems={problems}
          />
          <FormAlert message={addError} />
          <div className="flex flex-wrap gap-3">
            <Button
              disabled={
                adding || tickedCount === 0 || (step.preview.patient_matches !== true && !confirmedPerson)
              }
              onClick={() => void add(step.preview)}
            >
              {tickedCount === 0
                ? 'Nothing new to add'
                : `Add ${tickedCount} ${tickedCount === 1 ? 'record' : 'records'}`}
            </Button>
            <Button variant="secondary" onClick={() => setStep({ at: 'choose', error: null })}>
              Choose another file
            </Button>
          </div>
        </div>
      ) : null}
      {step.at === 'done' ? (
        <Card className="grid gap-3">
          <p role="status" className="font-semibold text-text">
            {step.added === 0
              ? 'Nothing was added: it is all in Kincare already.'
              : `Added ${step.added} ${step.added === 1 ? 'record' : 'records'}. They are on this device now and reach the server when you are online.`}
          </p>
          <div className="flex flex-wrap gap-3">
            <Link
              to={caregiverId ? '/caregiver/dashboard' : '/medical-history'}
              className="inline-flex min-h-11 items-center font-semibold text-primary-strong underline"
            >
              {caregiverId ? 'Home' : 'Medical History'}
            </Link>
            <Button variant="secondary" onClick={() => setStep({ at: 'choose', error: null })}>
              Import another file
            </Button>
          </div>
        </Card>
      ) : null}
    </>
  );
}
