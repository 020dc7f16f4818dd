import type { LabReportFilter } from '../../../domain/lab-reports';
import type { LocalDoctor } from '../../../local/db';
import { SelectField } from '../../ui/fields';
import { DateRangeFields, FilterBar } from '../../ui/filter-bar';

// The history's filters: Doctor ('All Doctors' plus the patient's doctors), a Date Range of the report
// date (start and end pickers, each date also written yyyy/MM/dd), and Clear Filters. The screen applies
// them 500 ms after the last change; an empty choice means 'all'.

type Props = {
  filter: LabReportFilter;
  doctors: readonly LocalDoctor[];
  onChange: (filter: LabReportFilter) => void;
  onClear: () => void;
};

/** The range's dates as the history writes them (yyyy/MM/dd), whatever the browser's picker shows. */
function asPickerDate(date: string | undefined): string {
  return date ? date.replaceAll('-', '/') : 'yyyy/MM/dd';
}

export function LabReportFilters({ filter, doctors, onChange, onClear }: Props) {
  const set = (key: 'doctor' | 'startDate' | 'endDate', value: string) =>
    onChange({ ...filter, [key]: value || undefined });
  return (
    <FilterBar label="Filter lab reports" columns={3} onClear={onClear}>
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
      <DateRangeFields
        labels={{ start: 'Date Range start', end: 'Date Range end' }}
        start={filter.startDate}
        end={filter.endDate}
        hint={asPickerDate}
        onChange={set}
      />
    </FilterBar>
  );
}
