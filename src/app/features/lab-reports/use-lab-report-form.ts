import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  LAB_REPORT_MESSAGES as MESSAGES,
  type LabReport,
  type LabReportOcrData,
} from '../../../domain/lab-reports';
import { parseSpokenDate } from '../../../domain/spoken-date';
import { userDb, type LocalDoctor } from '../../../local/db';
import type { LabExtractionJob } from '../../../local/db-device-work';
import { addLabReport, editLabReport, reportOcrText } from '../../../local/lab-reports';
import { useFormSubmit } from '../../ui/form';
import { useZodForm } from '../../ui/use-zod-form';
import {
  EMPTY_LAB_FORM,
  labFormSchema,
  valuesOfReport,
  withExtraction,
  type LabFormState,
} from './lab-report-form-values';
import { editableResults, resultsToSave, type EditableResult } from './lab-results-editor';
import { useUploadFlow } from './use-upload-flow';

// The lab report form's state and its save. New: the chosen file is uploaded and read at once, and what
// was found prefills the form for review; offline it is kept on this device and read once uploaded. Edit:
// the form prefilled, and a report read since it was saved offline opens with what was found. Saving
// writes to this device at once (the outbox sends it).

export type LabReportFormContext = {
  patientId: string;
  caregiverId: string | null;
  doctors: readonly LocalDoctor[];
  today: string;
  /** The report to edit, with its read waiting for review if any; null for a new one. */
  editing: { report: LabReport; job: LabExtractionJob | undefined } | null;
  onDone: (message: string, id: string) => void;
};

type Meta = Pick<LabReportOcrData, 'doctor_name' | 'report_date' | 'report_type'>;

/** What a failed save says: the write path's own words, else the upload's failure. */
const describeFailure = (error: unknown) =>
  error instanceof Error && error.name === 'Error' && error.message ? error.message : MESSAGES.uploadFailed;

function initialState(
  editing: LabReportFormContext['editing'],
  readyJob: LabReportOcrData | null,
  context: { today: string; doctorIds: ReadonlySet<string> },
): LabFormState {
  if (!editing) return { ...EMPTY_LAB_FORM, results: [] };
  const saved = valuesOfReport(editing.report);
  if (!readyJob) return { ...saved, results: editableResults(editing.report.results) };
  return {
    ...withExtraction(
      saved,
      { ...readyJob, report_type: saved.report_type || readyJob.report_type },
      context,
    ),
    results: editableResults(readyJob.lab_results),
  };
}

export function useLabReportForm({
  patientId,
  caregiverId,
  doctors,
  today,
  editing,
  onDone,
}: LabReportFormContext) {
  const readyJob = editing?.job?.state === 'ready' ? editing.job.extraction : null;
  const [initial] = useState(() =>
    initialState(editing, readyJob, { today, doctorIds: new Set(doctors.map((doctor) => doctor.doctor_id)) }),
  );
  const [meta, setMeta] = useState<Meta | null>(() => readyJob);
  const formRef = useRef<HTMLFormElement>(null);

  // The upload is started before the form (whether a file is there is part of the form's checks), so what
  // it reads reaches the form through this ref, set once the form is there.
  const applyReading = useRef<(data: LabReportOcrData) => void>(() => undefined);
  const onExtracted = useCallback((data: LabReportOcrData) => applyReading.current(data), []);
  const upload = useUploadFlow({ patientId, onExtracted });
  const hasFile = editing !== null || upload.file !== null || upload.uploadedKey !== null;
  const schema = useMemo(() => labFormSchema({ today, hasFile }), [today, hasFile]);
  const form = useZodForm(schema, initial);
  const { setValues } = form;

  useEffect(() => {
    applyReading.current = (data) => {
      setValues((previous) => ({
        ...withExtraction(previous, data, {
          today,
          doctorIds: new Set(doctors.map((doctor) => doctor.doctor_id)),
        }),
        results: editableResults(data.lab_results),
      }));
      setMeta({
        doctor_name: data.doctor_name,
        report_date: data.report_date,
        report_type: data.report_type,
      });
      // The person reviews from the top: the first field takes the focus.
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('input[name="report_type"]')?.focus(),
      );
    };
  }, [setValues, today, doctors]);

  // Voice input (speech enabled): the type as heard; a spoken date stored as YYYY-MM-DD, or why not.
  const heard = (name: 'report_type' | 'report_date', value: string) => {
    form.set(name, value);
    form.touch(name);
  };
  const heardType = (transcript: string) => {
    heard('report_type', transcript.trim());
    return null;
  };
  const heardDate = (transcript: string) => {
    const spoken = parseSpokenDate(transcript, new Date());
    if ('error' in spoken) return spoken.error;
    heard('report_date', spoken.date);
    return null;
  };

  const save = async (values: LabFormState) => {
    const results = resultsToSave(values.results);
    const chosenDoctor = doctors.find((doctor) => doctor.doctor_id === values.doctor_id);
    const doctorName = chosenDoctor?.name ?? meta?.doctor_name ?? editing?.report.doctor_name ?? null;
    const ocr =
      meta || results.length > 0
        ? reportOcrText({
            doctor_name: meta?.doctor_name ?? doctorName,
            report_date: meta?.report_date ?? values.report_date,
            report_type: meta?.report_type ?? values.report_type,
            lab_results: results,
          })
        : '';
    const fields = {
      report_type: values.report_type.trim(),
      report_date: values.report_date.trim(),
      doctor_id: values.doctor_id || null,
      doctor_name: doctorName,
    };
    if (editing) {
      const rowsChanged =
        readyJob !== null || JSON.stringify(results) !== JSON.stringify(editing.report.results);
      await editLabReport(userDb(), editing.report.id, {
        ...fields,
        ...(rowsChanged ? { report_ocr: ocr } : {}),
      });
      onDone(MESSAGES.updated, editing.report.id);
      return;
    }
    const id = await addLabReport(userDb(), {
      patient_id: patientId,
      caregiver_id: caregiverId,
      fields: { ...fields, report_ocr: ocr },
      file: upload.uploadedKey
        ? { uploadedKey: upload.uploadedKey }
        : { blob: upload.file as File, name: (upload.file as File).name },
      // Nothing was read (no connection): read once the file is uploaded, for the person to review.
      readLater: upload.uploadedKey === null,
    });
    upload.reset();
    onDone(MESSAGES.uploaded, id);
  };
  const submission = useFormSubmit(form, save, { describe: describeFailure });

  return {
    form,
    upload,
    readyJob,
    submission,
    heardType,
    heardDate,
    setResults: (rows: EditableResult[]) => form.set('results', rows),
    formRef,
  };
}

export type LabReportFormState = ReturnType<typeof useLabReportForm>;
