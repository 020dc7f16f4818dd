import { ALLERGY_SEVERITIES, ALLERGY_SEVERITY_LABELS } from '../../../domain/medical-history';
import {
  IMPORT_KIND_LABELS,
  IMPORT_KINDS,
  type ImportKind,
  type ImportPreview,
} from '../../../domain/record-import';
import type { ImportChoices } from '../../../local/record-import';
import { Badge } from '../../ui/badge';
import { Card } from '../../ui/card';
import { SelectField, TextField } from '../../ui/fields';
import { wordsOf } from './import-items';

// What a file holds, grouped by kind, each item a checkbox: what is already in Kincare is marked and left
// unticked, what the person may not add for this patient is shown but cannot be ticked, and an item the
// file left a needed field out of (an allergy's severity, a medicine's start) asks for it once ticked.

export type Ticks = Record<ImportKind, Set<number>>;

type Props = {
  preview: ImportPreview;
  known: Record<ImportKind, boolean[]>;
  ticks: Ticks;
  onTick: (kind: ImportKind, index: number, ticked: boolean) => void;
  choices: Pick<ImportChoices, 'severities' | 'startDates'>;
  onChoose: (choices: Pick<ImportChoices, 'severities' | 'startDates'>) => void;
  /** Why adding was refused, by item (`kind:index`): shown beside it. */
  problems: Record<string, string>;
};

const severityOptions = ALLERGY_SEVERITIES.map((value) => ({ value, label: ALLERGY_SEVERITY_LABELS[value] }));

export function ImportReview({ preview, known, ticks, onTick, choices, onChoose, problems }: Props) {
  const kinds = IMPORT_KINDS.filter((kind) => preview[kind].length > 0);
  return (
    <>
      {kinds.map((kind) => {
        const items = preview[kind] as ImportPreview[ImportKind][number][];
        const mayAdd = preview.may_add[kind];
        return (
          <Card key={kind} as="fieldset" className="min-w-0">
            <legend className="float-left mb-2 w-full text-heading text-text">
              {IMPORT_KIND_LABELS[kind]} ({items.length})
            </legend>
            {!mayAdd ? (
              <p className="clear-both mb-2 text-muted">
                Only the patient, or a caregiver with the permission to add these, can add them.
              </p>
            ) : null}
            <ul className="clear-both grid gap-2">
              {items.map((item, index) => {
                const words = wordsOf(kind, item);
                const already = known[kind][index] === true;
                const ticked = ticks[kind].has(index);
                const problem = problems[`${kind}:${index}`];
                const inputId = `import-${kind}-${index}`;
                const asksSeverity =
                  kind === 'allergies' &&
                  ticked &&
                  (item as ImportPreview['allergies'][number]).severity === null;
                const asksStart =
                  kind === 'prescriptions' &&
                  ticked &&
                  (item as ImportPreview['prescriptions'][number]).start_date === null;
                return (
                  <li key={inputId} className="min-w-0 rounded-control border border-border p-2">
                    <label
                      htmlFor={inputId}
                      className="flex min-h-11 cursor-pointer items-start gap-3 text-text"
                    >
                      <input
                        id={inputId}
                        type="checkbox"
                        className="mt-1 h-5 w-5 shrink-0 accent-primary"
                        checked={ticked}
                        disabled={!mayAdd || already}
                        onChange={(event) => onTick(kind, index, event.target.checked)}
                      />
                      <span className="min-w-0 break-words">
                        <span className="font-semibold">{words.name}</span>
                        {already ? (
                          <Badge tone="success" className="ml-2">
                            Already in Kincare
                          </Badge>
                        ) : null}
                        <span className="block text-muted">{words.details.join(' · ')}</span>
                      </span>
                    </label>
                    {kind === 'lab_reports' ? (
                      <ul className="ml-8 mt-1 grid gap-0.5 text-small text-text">
                        {(item as ImportPreview['lab_reports'][number]).results.map((row, rowIndex) => (
                          <li key={`${row.name}-${rowIndex}`} className="break-words">
                            {row.name}: {row.value} {row.unit}
                            {row.reference_range ? ` (range ${row.reference_range})` : ''}
                            {row.flag === 'H' ? ' High' : row.flag === 'L' ? ' Low' : ''}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                    {asksSeverity ? (
                      <div className="ml-8">
                        <SelectField
                          label="Severity (the file does not say)"
                          name={`severity-${index}`}
                          value={choices.severities[index] ?? ''}
                          placeholder="Choose a severity"
                          options={severityOptions}
                          error={problem}
                          onChange={(value) => {
                            const severities = { ...choices.severities };
                            if (value) severities[index] = value as (typeof ALLERGY_SEVERITIES)[number];
                            else delete severities[index];
                            onChoose({ ...choices, severities });
                          }}
                        />
                      </div>
                    ) : null}
                    {asksStart ? (
                      <div className="ml-8">
                        <TextField
                          type="date"
                          label="Started on (the file does not say)"
                          name={`start-${index}`}
                          value={choices.startDates[index] ?? ''}
                          error={problem}
                          onChange={(value) =>
                            onChoose({ ...choices, startDates: { ...choices.startDates, [index]: value } })
                          }
                        />
                      </div>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </Card>
        );
      })}
      {preview.skipped.length > 0 ? (
        <Card as="section" aria-labelledby="import-skipped">
          <h2 id="import-skipped" className="text-heading text-text">
            In the file, not kept by Kincare
          </h2>
          <ul className="mt-2 grid gap-1 text-muted">
            {preview.skipped.map((entry) => (
              <li key={entry.what}>
                {entry.what}: {entry.count}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </>
  );
}
