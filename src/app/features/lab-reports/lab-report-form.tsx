import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Camera, Eye, EyeOff } from 'lucide-react';
import {
  LAB_REPORT_MESSAGES as MESSAGES,
  type LabReport,
  type LabReportOcrData,
} from '../../../domain/lab-reports';
import { userDb, type LabExtractionJob, type LocalDoctor } from '../../../local/db';
import { addLabReport, editLabReport, reportOcrText } from '../../../local/lab-reports';
import { parseSpokenDate } from '../../../domain/spoken-date';
import { Button } from '../../ui/button';
import { SelectField, TextField } from '../../ui/fields';
import { FormAlert } from '../../ui/form-alert';
import { WithVoiceInput } from '../../ui/with-voice-input';
import {
  checkLabForm,
  EMPTY_LAB_FORM,
  valuesOfReport,
  withExtraction,
  type LabFormValues,
} from './lab-report-form-values';
import { reportName } from './lab-report-list';
import { ReportFileView } from './lab-report-preview';
import { editableResults, LabResultsEditor, resultsToSave, type EditableResult } from './lab-results-editor';
import { UploadProgress } from './upload-progress';
import { useUploadFlow } from './use-upload-flow';

// Upload a lab report, or edit one (SPEC sections 2, 4 and 5). New: choose a photo or PDF (or take a
// photo), it is uploaded and read at once, and what was found prefills the form for review; offline it is
// kept on this device and read once uploaded. Edit: no file chooser, a toggle to see the file, the form
// prefilled, and a report read since it was saved offline opens with what was found. Saving writes to this
// device at once (the outbox sends it).

const ACCEPT = 'image/png,image/jpeg,image/webp,application/pdf';

type Props = {
  patientId: string;
  caregiverId: string | null;
  doctors: readonly LocalDoctor[];
  today: string;
  /** The report to edit (is_edit, lab_report_id), with its read waiting for review if any; null for new. */
  editing: { report: LabReport; job: LabExtractionJob | undefined } | null;
  onDone: (message: string, id: string) => void;
  onCancel: () => void;
};

type Meta = Pick<LabReportOcrData, 'doctor_name' | 'report_date' | 'report_type'>;

export function LabReportForm({ patientId, caregiverId, doctors, today, editing, onDone, onCancel }: Props) {
  const readyJob = editing?.job?.state === 'ready' ? editing.job.extraction : null;
  const [values, setValues] = useState<LabFormValues>(() => {
    if (!editing) return EMPTY_LAB_FORM;
    const saved = valuesOfReport(editing.report);
    return readyJob
      ? withExtraction(
          { ...saved, report_type: saved.report_type },
          { ...readyJob, report_type: saved.report_type || readyJob.report_type },
          { today, doctorIds: new Set(doctors.map((doctor) => doctor.doctor_id)) },
        )
      : saved;
  });
  const [rows, setRows] = useState<EditableResult[]>(() =>
    editableResults(readyJob ? readyJob.lab_results : (editing?.report.results ?? [])),
  );
  const [meta, setMeta] = useState<Meta | null>(() => readyJob);
  const [touched, setTouched] = useState<Partial<Record<keyof LabFormValues, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [showFile, setShowFile] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const onExtracted = useCallback(
    (data: LabReportOcrData) => {
      setValues((previous) =>
        withExtraction(previous, data, {
          today,
          doctorIds: new Set(doctors.map((doctor) => doctor.doctor_id)),
        }),
      );
      setRows(editableResults(data.lab_results));
      setMeta({
        doctor_name: data.doctor_name,
        report_date: data.report_date,
        report_type: data.report_type,
      });
      // The person reviews from the top: the first field takes the focus.
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('input[name="report_type"]')?.focus(),
      );
    },
    [today, doctors],
  );
  const upload = useUploadFlow({ patientId, onExtracted });
  const chosenSource = useMemo(() => (upload.file ? { file: upload.file } : null), [upload.file]);
  const savedKey = editing?.report.attachment_key ?? null;
  const savedSource = useMemo(() => (savedKey ? { reference: savedKey } : null), [savedKey]);

  // Focus starts in the first field: the file chooser for a new report, the type when editing.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input, select')?.focus();
  }, []);

  const errors = checkLabForm(values, {
    today,
    hasFile: editing !== null || upload.file !== null || upload.uploadedKey !== null,
    results: rows,
  });
  const errorOf = (name: keyof LabFormValues) => (submitted || touched[name] ? errors[name] : undefined);
  const field = (name: keyof LabFormValues) => ({
    name,
    value: values[name],
    error: errorOf(name),
    onChange: (value: string) => setValues((previous) => ({ ...previous, [name]: value })),
    onBlur: () => setTouched((previous) => ({ ...previous, [name]: true })),
  });

  // Voice input (speech enabled): the type as heard; a spoken date stored as YYYY-MM-DD, or SPEC's error.
  const heard = (name: keyof LabFormValues, value: string) => {
    setValues((previous) => ({ ...previous, [name]: value }));
    setTouched((previous) => ({ ...previous, [name]: true }));
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

  const doctorOptions = doctors.map((doctor) => ({ value: doctor.doctor_id, label: doctor.name }));
  if (values.doctor_id && !doctors.some((doctor) => doctor.doctor_id === values.doctor_id))
    doctorOptions.push({ value: values.doctor_id, label: 'A doctor no longer in the list' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) {
      requestAnimationFrame(() =>
        formRef.current
          ?.querySelector<HTMLElement>('[aria-invalid="true"], [data-field-error="true"]')
          ?.focus(),
      );
      return;
    }
    const results = resultsToSave(rows);
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
    setBusy(true);
    setFailure(null);
    try {
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
      const read = upload.uploadedKey !== null;
      const id = await addLabReport(userDb(), {
        patient_id: patientId,
        caregiver_id: caregiverId,
        fields: { ...fields, report_ocr: ocr },
        file: upload.uploadedKey
          ? { uploadedKey: upload.uploadedKey }
          : { blob: upload.file as File, name: (upload.file as File).name },
        // Nothing was read (no connection): read once the file is uploaded, for the person to review.
        readLater: !read,
      });
      upload.reset();
      onDone(MESSAGES.uploaded, id);
    } catch (error) {
      setFailure(
        error instanceof Error && error.name === 'Error' && error.message
          ? error.message
          : MESSAGES.uploadFailed,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-label={editing ? 'Edit lab report' : 'Upload lab report'}
      className="grid gap-x-4 sm:grid-cols-2"
    >
      {editing ? (
        <div className="mb-4 sm:col-span-2">
          <p className="mb-2 text-muted">Editing {reportName(editing.report)}.</p>
          {readyJob ? (
            <p role="status" className="mb-2 font-semibold text-text">
              {MESSAGES.review}
            </p>
          ) : null}
          {savedSource ? (
            <>
              <Button
                variant="secondary"
                aria-expanded={showFile}
                onClick={() => setShowFile((shown) => !shown)}
              >
                {showFile ? (
                  <EyeOff aria-hidden="true" className="h-5 w-5" />
                ) : (
                  <Eye aria-hidden="true" className="h-5 w-5" />
                )}
                {showFile ? 'Hide Lab Report' : 'View Lab Report'}
              </Button>
              {showFile ? (
                <div className="mt-3">
                  <ReportFileView source={savedSource} title={reportName(editing.report)} />
                </div>
              ) : null}
            </>
          ) : null}
        </div>
      ) : (
        <ReportFileChooser
          error={submitted ? (upload.fileError ?? errors.file) : upload.fileError}
          onChoose={(file) => void upload.choose(file)}
          disabled={busy}
        >
          {chosenSource ? <ReportFileView source={chosenSource} title="The chosen lab report" /> : null}
          <UploadProgress flow={upload.flow} onRetry={upload.retry} />
        </ReportFileChooser>
      )}

      <WithVoiceInput label="Report Type" onTranscript={heardType}>
        <TextField label="Report Type" required placeholder="e.g. Blood Test" {...field('report_type')} />
      </WithVoiceInput>
      <WithVoiceInput label="Report Date" onTranscript={heardDate}>
        <TextField label="Report Date" type="date" required {...field('report_date')} />
      </WithVoiceInput>
      <div className="sm:col-span-2">
        <SelectField
          label="Doctor"
          placeholder="--- Select Doctor ---"
          options={doctorOptions}
          {...field('doctor_id')}
        />
      </div>

      <LabResultsEditor rows={rows} onChange={setRows} error={submitted ? errors.results : undefined} />

      <FormAlert message={failure} className="sm:col-span-2" />
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <Button type="submit" disabled={busy || upload.busy}>
          {busy ? 'Loading...' : 'Submit'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The file chooser: any image or PDF, or a photo taken now (the phone's camera, through the file picker). */
function ReportFileChooser({
  error,
  onChoose,
  disabled,
  children,
}: {
  error: string | null | undefined;
  onChoose: (file: File | undefined) => void;
  disabled: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className="mb-4 rounded-card border border-dashed border-border-strong bg-surface-muted p-3 sm:col-span-2">
      <label className="block text-small font-medium text-text" htmlFor="lab-report-file">
        Report file (photo or PDF)
        <span aria-hidden="true" className="text-danger">
          {' '}
          *
        </span>
      </label>
      <input
        id="lab-report-file"
        type="file"
        accept={ACCEPT}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'lab-report-file-error' : undefined}
        onChange={(event) => onChoose(event.target.files?.[0])}
        className="mt-1 block min-h-11 w-full max-w-full text-base text-text file:mr-3 file:min-h-11 file:rounded-control file:border file:border-border-strong file:bg-surface file:px-3 file:font-semibold file:text-text"
      />
      <label className="mt-3 inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-control border border-border-strong bg-surface px-4 py-2 font-semibold text-text focus-within:ring-2 focus-within:ring-focus hover:bg-surface-muted">
        <Camera aria-hidden="true" className="h-5 w-5" />
        Take a photo
        <input
          type="file"
          accept="image/*"
          capture="environment"
          disabled={disabled}
          className="sr-only"
          onChange={(event) => onChoose(event.target.files?.[0])}
        />
      </label>
      {error ? (
        <p id="lab-report-file-error" role="alert" className="mt-2 text-small text-danger">
          {error}
        </p>
      ) : null}
      <div className="mt-3 grid gap-3">{children}</div>
    </div>
  );
}
