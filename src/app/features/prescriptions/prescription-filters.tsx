import type { PrescriptionFilter, PrescriptionStatus } from '../../../domain/prescriptions';
import type { LocalDoctor } from '../../../local/db';
import { Button } from '../../ui/button';
import { SelectField, TextField } from '../../ui/fields';
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
  const rangeBackwards = Boolean(filter.startDate && filter.endDate && filter.endDate < filter.startDate);
  return (
    <form
      aria-label="Filter prescriptions"
      onSubmit={(event) => event.preventDefault()}
      className="mb-4 grid grid-cols-1 gap-x-3 min-[360px]:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end"
    >
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
      <TextField
        label="From"
        name="startDate"
        type="date"
        value={filter.startDate ?? ''}
        onChange={(value) => set('startDate', value)}
      />
      <TextField
        label="To"
        name="endDate"
        type="date"
        value={filter.endDate ?? ''}
        error={rangeBackwards ? 'The end of the range cannot be before its start.' : undefined}
        onChange={(value) => set('endDate', value)}
      />
      <div className="mb-4 min-[360px]:col-span-2 lg:col-span-1">
        <Button variant="secondary" onClick={() => onChange({})} className="w-full lg:w-auto">
          Clear Filters
        </Button>
      </div>
    </form>
  );
}
