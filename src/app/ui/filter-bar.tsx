import type { ReactNode } from 'react';
import { Button } from './button';
import { TextField } from './fields';

// The filters above a list: labelled fields that apply as they change (nothing to send, so Enter sends
// nothing), and Clear Filters, which brings the whole list back. One column on the smallest phones, two
// from 360 px, and one row with the button at its end from 1024 px.

const ROW: Record<2 | 3 | 4, string> = {
  2: 'lg:grid-cols-[repeat(2,minmax(0,1fr))_auto]',
  3: 'lg:grid-cols-[repeat(3,minmax(0,1fr))_auto]',
  4: 'lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]',
};

export function FilterBar({
  label,
  columns,
  onClear,
  children,
}: {
  /** Names the filters for screen readers ('Filter prescriptions'). */
  label: string;
  /** How many fields share the row on a wide screen (a field spanning two at 360 px counts once). */
  columns: 2 | 3 | 4;
  onClear: () => void;
  children: ReactNode;
}) {
  return (
    <form
      aria-label={label}
      onSubmit={(event) => event.preventDefault()}
      className={`mb-4 grid grid-cols-1 gap-x-3 min-[360px]:grid-cols-2 lg:items-end ${ROW[columns]}`}
    >
      {children}
      <div className="mb-4 min-[360px]:col-span-2 lg:col-span-1">
        <Button variant="secondary" onClick={onClear} className="w-full lg:w-auto">
          Clear Filters
        </Button>
      </div>
    </form>
  );
}

export const BACKWARDS_RANGE = 'The end of the range cannot be before its start.';

/** A date range as two date fields; an end before the start is said beside the end (the list shows none). */
export function DateRangeFields({
  start,
  end,
  labels,
  hint,
  onChange,
}: {
  start: string | undefined;
  end: string | undefined;
  labels: { start: string; end: string };
  /** A line under each field, from its date (how the screen writes it). */
  hint?: (date: string | undefined) => string;
  onChange: (field: 'startDate' | 'endDate', value: string) => void;
}) {
  const backwards = Boolean(start && end && end < start);
  return (
    <>
      <TextField
        label={labels.start}
        name="startDate"
        type="date"
        value={start ?? ''}
        {...(hint ? { hint: hint(start) } : {})}
        onChange={(value) => onChange('startDate', value)}
      />
      <TextField
        label={labels.end}
        name="endDate"
        type="date"
        value={end ?? ''}
        {...(hint ? { hint: hint(end) } : {})}
        error={backwards ? BACKWARDS_RANGE : undefined}
        onChange={(value) => onChange('endDate', value)}
      />
    </>
  );
}
