import type { LabReportFilter } from '../../../domain/lab-reports';
import type { LocalDoctor } from '../../../local/db';
import { Button } from '../../ui/button';
import { SelectField, TextField } from '../../ui/fields';

// The history's filters (SPEC section 2): Doctor ('All Doctors' plus the patient's doctors), a Date Range
// of the report date (start and end pickers, each date also written yyyy/MM/dd), and Clear Filters. The
// screen applies them 500 ms after the last change (SPEC section 9); an empty choice means 'all'.

type Props = {
  filter: LabReportFilter;
  doctors: readonly LocalDoctor[];
  onChange: (filter: LabReportFilter) => void;
  onClear: () => void;
};

/** The range's dates as the spec writes them (yyyy/MM/dd), whatever the browser's picker shows. */
function asPickerDate(date: string | undefined): string {
  return date ? date.replaceAll('-', '/') : 'yyyy/MM/dd';
}

export function LabReportFilters({ filter, doctors, onChange, onClear }: Props) {
  const set = (key: 'doctor' | 'startDate' | 'endDate', value: string) =>
    onChange({ ...filter, [key]: value || undefined });
  const backwards = Boolean(filter.startDate && filter.endDate && filter.endDate < filter.startDate);
  return (
    <form
      aria-label="Filter lab reports"
      onSubmit={(event) => event.preventDefault()}
      className="mb-4 grid grid-cols-1 gap-x-3 min-[360px]:grid-cols-2 lg:grid-cols-[repeat(3,minmax(0,1fr))_auto] lg:items-end"
    >
      <div className="min-[360px]:col-span-2 lg:col-span-1">
        <SelectField
          label="Doctor"
          name="doctor"
          placeholder="All Doctors"
          options={doctors.map((doctor) => ({ value: doctor.doctor_id, label: doctor.name }))}
          value={filter.doctor ?? ''}
          onChange={(value) => set('doctor', value)}
        />
      </div>
      <TextField
        label="Date Range start"
        name="startDate"
        type="date"
        value={filter.startDate ?? ''}
        hint={asPickerDate(filter.startDate)}
        onChange={(value) => set('startDate', value)}
      />
      <TextField
        label="Date Range end"
        name="endDate"
        type="date"
        value={filter.endDate ?? ''}
        hint={asPickerDate(filter.endDate)}
        error={backwards ? 'The end of the range cannot be before its start.' : undefined}
        onChange={(value) => set('endDate', value)}
      />
      <div className="mb-4 min-[360px]:col-span-2 lg:col-span-1">
        <Button variant="secondary" onClick={onClear} className="w-full lg:w-auto">
          Clear Filters
        </Button>
      </div>
    </form>
  );
}
