import type { PrescriptionFilter, PrescriptionStatus } from '../../../domain/prescriptions';
import type { LocalDoctor } from '../../../local/db';
import { SelectField } from '../../ui/fields';
import { DateRangeFields, FilterBar } from '../../ui/filter-bar';
import { STATUS_OPTIONS } from './prescription-format';

// The list's filters: status, prescribing doctor and a date range (a prescription is kept when it runs
// on any day of the range). 'All' (an empty choice) means no filter; with none set the list is the
// current and upcoming prescriptions.

type Props = {
  filter: PrescriptionFilter;
  doctors: readonly LocalDoctor[];
  onChange: (filter: PrescriptionFilter) => void;
};

export function PrescriptionFilters({ filter, doctors, onChange }: Props) {
  const set = (key: keyof PrescriptionFilter, value: string) =>
    onChange({ ...filter, [key]: value || undefined });
  return (
    <FilterBar label="Filter prescriptions" columns={4} onClear={() => onChange({})}>
      <SelectField
        label="Status"
        name="status"
        placeholder="All statuses"
        options={STATUS_OPTIONS}
        value={filter.status ?? ''}
        onChange={(value) =>
          onChange({ ...filter, status: (value || undefined) as PrescriptionStatus | undefined })
        }
      />
      <SelectField
        label="Doctor"
        name="doctor"
        placeholder="All doctors"
        options={doctors.map((doctor) => ({ value: doctor.doctor_id, label: doctor.name }))}
        value={filter.doctor ?? ''}
        onChange={(value) => set('doctor', value)}
      />
      <DateRangeFields
        labels={{ start: 'From', end: 'To' }}
        start={filter.startDate}
        end={filter.endDate}
        onChange={set}
      />
    </FilterBar>
  );
}
