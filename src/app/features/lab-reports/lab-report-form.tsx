import { useMemo } from 'react';
import { Form } from '../../ui/form';
import { SelectField, TextField } from '../../ui/fields';
import { WithVoiceInput } from '../../ui/with-voice-input';
import { EditedReportFile, ReportFileChooser } from './lab-report-file';
import { ReportFileView } from './lab-report-preview';
import { LabResultsEditor } from './lab-results-editor';
import { UploadProgress } from './upload-progress';
import { useLabReportForm, type LabReportFormContext } from './use-lab-report-form';

// Upload a lab report, or edit one: its file (lab-report-file.tsx), its type, date and doctor (each with
// voice input when speech is on), and the results read from it for review. The state and the save are
// use-lab-report-form.ts.

type Props = LabReportFormContext & { onCancel: () => void };

export function LabReportForm({ onCancel, ...context }: Props) {
  const { form, upload, readyJob, submission, heardType, heardDate, setResults, formRef } =
    useLabReportForm(context);
  const { editing, doctors } = context;
  const chosenSource = useMemo(() => (upload.file ? { file: upload.file } : null), [upload.file]);

  const doctorOptions = doctors.map((doctor) => ({ value: doctor.doctor_id, label: doctor.name }));
  const chosenDoctor = form.values.doctor_id;
  if (chosenDoctor && !doctors.some((doctor) => doctor.doctor_id === chosenDoctor))
    doctorOptions.push({ value: chosenDoctor, label: 'A doctor no longer in the list' });

  return (
    <Form
      label={editing ? 'Edit lab report' : 'Upload lab report'}
      formRef={formRef}
      focusFirstField
      columns={2}
      onSubmit={submission.onSubmit}
      failure={submission.failure}
      submitLabel="Submit"
      busyLabel="Loading..."
      busy={submission.busy}
      submitDisabled={upload.busy}
      onCancel={onCancel}
    >
      {editing ? (
        <EditedReportFile report={editing.report} readWaiting={readyJob !== null} />
      ) : (
        <ReportFileChooser
          error={upload.fileError ?? form.errorOf('file')}
          onChoose={(file) => void upload.choose(file)}
          disabled={submission.busy}
        >
          {chosenSource ? <ReportFileView source={chosenSource} title="The chosen lab report" /> : null}
          <UploadProgress flow={upload.flow} onRetry={upload.retry} />
        </ReportFileChooser>
      )}

      <WithVoiceInput label="Report Type" onTranscript={heardType}>
        <TextField
          label="Report Type"
          required
          placeholder="e.g. Blood Test"
          {...form.field('report_type')}
        />
      </WithVoiceInput>
      <WithVoiceInput label="Report Date" onTranscript={heardDate}>
        <TextField label="Report Date" type="date" required {...form.field('report_date')} />
      </WithVoiceInput>
      <div className="sm:col-span-2">
        <SelectField
          label="Doctor"
          placeholder="--- Select Doctor ---"
          options={doctorOptions}
          {...form.field('doctor_id')}
        />
      </div>

      <LabResultsEditor rows={form.values.results} onChange={setResults} error={form.errorOf('results')} />
    </Form>
  );
}
