import { useId } from 'react';
import { Check, Plus, TriangleAlert, X } from 'lucide-react';
import { LAB_FLAGS, type LabFlag, type LabResult } from '../../../domain/lab-results';
import { Button } from '../../ui/button';
import { FLAG_OPTIONS, reviewReasonText } from './lab-report-format';

// The results read from a report, for the person to check and correct before saving: one row per test
// (name, value, unit, flag, reference range), rows added or removed at will. A row extraction was unsure
// of is highlighted with the reason in words; it stops needing review as soon as the person edits it or
// says it looks right.

export type EditableResult = {
  key: string;
  name: string;
  value: string;
  unit: string;
  flag: LabFlag;
  reference_range: string;
  code?: string | undefined;
  needs_review: boolean;
  review_reasons: readonly string[];
};

let nextKey = 0;
const newKey = () => `row-${(nextKey += 1)}`;

/** Rows to edit from what extraction found, or from a saved report's rows. */
export function editableResults(
  rows: readonly (Omit<LabResult, 'flag'> & {
    flag: string;
    review_reasons?: readonly string[] | undefined;
  })[],
): EditableResult[] {
  return rows.map((row) => ({
    key: newKey(),
    name: row.name,
    value: row.value,
    unit: row.unit,
    flag: (LAB_FLAGS as readonly string[]).includes(row.flag) ? (row.flag as LabFlag) : '',
    reference_range: row.reference_range,
    code: row.code,
    needs_review: row.needs_review === true,
    review_reasons: row.review_reasons ?? [],
  }));
}

/** The rows as a report keeps them (rows left wholly empty are dropped). */
export function resultsToSave(rows: readonly EditableResult[]): LabResult[] {
  return rows
    .filter((row) => [row.name, row.value, row.unit, row.reference_range].some((text) => text.trim() !== ''))
    .map((row) => ({
      name: row.name.trim(),
      value: row.value.trim(),
      unit: row.unit.trim(),
      flag: row.flag,
      reference_range: row.reference_range.trim(),
      ...(row.code ? { code: row.code } : {}),
      ...(row.needs_review ? { needs_review: true } : {}),
    }));
}

const cellClass =
  'mt-1 block min-h-11 w-full min-w-0 rounded-control border border-border-strong bg-surface px-2 py-2 text-base text-text focus:outline-none focus:ring-2 focus:ring-focus';

export function LabResultsEditor({
  rows,
  onChange,
  error,
}: {
  rows: EditableResult[];
  onChange: (rows: EditableResult[]) => void;
  error?: string | null | undefined;
}) {
  const headingId = useId();
  const toReview = rows.filter((row) => row.needs_review).length;
  const update = (key: string, change: Partial<EditableResult>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...change, needs_review: false } : row)));
  return (
    <section aria-labelledby={headingId} className="mb-4 sm:col-span-2" data-testid="lab-results-editor">
      <h2 id={headingId} className="text-heading text-text">
        Results
      </h2>
      <p className="mb-2 text-small text-muted" aria-live="polite">
        {rows.length === 0
          ? 'No results yet. Add the tests of the report if you like.'
          : toReview > 0
            ? `${toReview === 1 ? '1 result needs' : `${toReview} results need`} your review (highlighted).`
            : `${rows.length === 1 ? '1 result' : `${rows.length} results`}, all checked.`}
      </p>
      <ol className="grid gap-3">
        {rows.map((row, index) => (
          <li
            key={row.key}
            data-needs-review={row.needs_review ? 'true' : undefined}
            className={`rounded-card p-3 ring-1 ${
              row.needs_review ? 'bg-warning-soft ring-warning' : 'bg-surface-muted ring-border'
            }`}
          >
            <fieldset>
              <legend className="text-small font-semibold text-text">
                Result {index + 1}
                {row.name ? `: ${row.name}` : ''}
              </legend>
              {row.needs_review ? (
                <p className="mt-1 flex items-start gap-1 text-small text-warning-strong">
                  <TriangleAlert aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
                  <span>
                    <span className="font-semibold">Needs review. </span>
                    {reviewReasonText(row.review_reasons)}
                  </span>
                </p>
              ) : null}
              <div className="grid grid-cols-2 gap-x-2 sm:grid-cols-[2fr_1fr_1fr_1fr_1.5fr]">
                <label className="col-span-2 mt-2 block text-small text-text sm:col-span-1">
                  Test name
                  <input
                    className={cellClass}
                    value={row.name}
                    onChange={(event) => update(row.key, { name: event.target.value, code: undefined })}
                  />
                </label>
                <label className="mt-2 block text-small text-text">
                  Value
                  <input
                    className={cellClass}
                    value={row.value}
                    inputMode="decimal"
                    onChange={(event) => update(row.key, { value: event.target.value })}
                  />
                </label>
                <label className="mt-2 block text-small text-text">
                  Unit
                  <input
                    className={cellClass}
                    value={row.unit}
                    onChange={(event) => update(row.key, { unit: event.target.value })}
                  />
                </label>
                <label className="mt-2 block text-small text-text">
                  Flag
                  <select
                    className={cellClass}
                    value={row.flag}
                    onChange={(event) => update(row.key, { flag: event.target.value as LabFlag })}
                  >
                    {FLAG_OPTIONS.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="mt-2 block text-small text-text">
                  Reference range
                  <input
                    className={cellClass}
                    value={row.reference_range}
                    placeholder="e.g. 70-99"
                    onChange={(event) => update(row.key, { reference_range: event.target.value })}
                  />
                </label>
              </div>
              <div className="mt-2 flex flex-wrap gap-2">
                {row.needs_review ? (
                  <Button variant="secondary" onClick={() => update(row.key, {})}>
                    <Check aria-hidden="true" className="h-5 w-5" />
                    Looks right
                    <span className="sr-only">: result {index + 1}</span>
                  </Button>
                ) : null}
                <Button
                  variant="ghost"
                  onClick={() => onChange(rows.filter((kept) => kept.key !== row.key))}
                  aria-label={`Remove result ${index + 1}${row.name ? ` (${row.name})` : ''}`}
                >
                  <X aria-hidden="true" className="h-5 w-5" />
                  Remove
                </Button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      {error ? (
        <p role="alert" className="mt-2 text-small text-danger">
          {error}
        </p>
      ) : null}
      <Button
        variant="secondary"
        className="mt-3"
        onClick={() =>
          onChange([
            ...rows,
            {
              key: newKey(),
              name: '',
              value: '',
              unit: '',
              flag: '',
              reference_range: '',
              needs_review: false,
              review_reasons: [],
            },
          ])
        }
      >
        <Plus aria-hidden="true" className="h-5 w-5" />
        Add a result
      </Button>
    </section>
  );
}
