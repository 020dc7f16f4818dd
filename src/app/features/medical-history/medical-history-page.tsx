import { useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { useLiveQuery } from 'dexie-react-hooks';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import {
  assembledHistory,
  type FullMedicalHistory,
  type HistoryEntry,
  type Lifestyle,
} from '../../../domain/medical-history';
import { hasUserDb, userDb } from '../../../local/db';
import { removeHistoryEntry, saveHistoryEntry, saveLifestyle } from '../../../local/medical-history';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Card, PageTitle } from '../../ui/page';
import { HistoryEntrySheet } from './history-entry-form';
import {
  capitalized,
  entriesOf,
  formTextOf,
  LIFESTYLE_FIELDS,
  lifestyleFormSchema,
  lifestyleLines,
  LIST_SECTIONS,
  type ListSection,
} from './history-sections';

// /medical-history (the patient, who edits it) and /caregiver/medical-history (read-only): the history
// from the device's table, offline too. Each section lists its entries with an honest empty state; the
// patient adds, edits and removes entries in a sheet, and every save goes through the outbox.

type Props = {
  patientId: string | null;
  /** The patient themself: only they change their history (no caregiver permission allows it). */
  editable: boolean;
  /** What the route shows under the history (the check-in history: a feature does not import another). */
  after?: ReactNode;
  /** What the route offers under the title (the patient's link to import records from a file). */
  actions?: ReactNode;
};

type Entry = { id: string } & Record<string, unknown>;
type Editing = { section: ListSection; entry: Entry | null } | { lifestyle: true } | null;
type Removing = { section: ListSection; entry: Entry } | null;

/**
 * The patient's history on this device, assembled into lists by the domain's one assembler (the table
 * holds the record as stored: an entry per field); undefined while the first read runs (no flash of
 * empty states).
 */
export function usePatientHistory(patientId: string | null): FullMedicalHistory | null | undefined {
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return null;
    const row = await userDb().medical_history.where('patient_id').equals(patientId).first();
    return assembledHistory(row ?? { id: '', patient_id: patientId, version: 0 });
  }, [patientId]);
}

export function MedicalHistoryPage({ patientId, editable, after, actions }: Props) {
  const history = usePatientHistory(patientId);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<Removing>(null);

  const title = (
    <PageTitle
      description={
        editable
          ? 'Your conditions, allergies, surgeries, family history, immunizations and lifestyle, on this device even without a signal.'
          : 'The patient’s medical history, read-only, on this device even without a signal.'
      }
    >
      Medical History
    </PageTitle>
  );
  if (!patientId)
    return (
      <>
        {title}
        <Card>
          <p>Please select patient.</p>
        </Card>
      </>
    );

  const saveEntry = (section: ListSection, isNew: boolean) => async (value: unknown) => {
    const id = editing && 'section' in editing && editing.entry ? editing.entry.id : crypto.randomUUID();
    const parsed = section.schema.parse({ ...(value as object), id }) as HistoryEntry;
    await saveHistoryEntry(userDb(), patientId, section.field, parsed);
    setEditing(null);
    toast.success(`${capitalized(section.noun)} ${isNew ? 'added' : 'updated'}.`);
  };
  const saveLifestyleValue = async (value: unknown) => {
    await saveLifestyle(userDb(), patientId, lifestyleFormSchema.parse(value) as Lifestyle);
    setEditing(null);
    toast.success('Lifestyle updated.');
  };
  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await removeHistoryEntry(userDb(), patientId, removing.section.field, removing.entry.id);
      toast.success(`${capitalized(removing.section.noun)} removed.`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'This could not be removed.');
    } finally {
      setRemoving(null);
    }
  };

  const sheetTitle =
    editing === null
      ? ''
      : 'lifestyle' in editing
        ? 'Edit lifestyle'
        : `${editing.entry ? 'Edit' : 'Add'} ${editing.section.noun}`;

  return (
    <>
      {title}
      {actions ? <div className="mb-4">{actions}</div> : null}
      <SectionLinks />
      {history === undefined ? null : (
        <div className="grid gap-6">
          {LIST_SECTIONS.map((section) => (
            <HistorySection
              key={section.field}
              section={section}
              entries={history ? entriesOf(history, section.field) : []}
              editable={editable}
              onAdd={() => setEditing({ section, entry: null })}
              onEdit={(entry) => setEditing({ section, entry })}
              onRemove={(entry) => setRemoving({ section, entry })}
            />
          ))}
          <LifestyleSection
            lifestyle={history?.lifestyle ?? null}
            editable={editable}
            onEdit={() => setEditing({ lifestyle: true })}
          />
        </div>
      )}
      {after ? <div className="mt-8">{after}</div> : null}

      {editing === null ? null : 'lifestyle' in editing ? (
        <HistoryEntrySheet
          title={sheetTitle}
          fields={LIFESTYLE_FIELDS}
          initial={formTextOf(LIFESTYLE_FIELDS, history?.lifestyle ?? null)}
          schema={lifestyleFormSchema}
          submitLabel="Save lifestyle"
          onSave={saveLifestyleValue}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <HistoryEntrySheet
          key={`${editing.section.field}:${editing.entry?.id ?? 'new'}`}
          title={sheetTitle}
          fields={editing.section.fields}
          initial={formTextOf(editing.section.fields, editing.entry)}
          schema={editing.section.schema}
          submitLabel={editing.entry ? 'Save changes' : `Add ${editing.section.noun}`}
          onSave={saveEntry(editing.section, editing.entry === null)}
          onCancel={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.section.noun ?? 'entry'}?`}
        message={
          removing
            ? `This removes ${removing.section.nameOf(removing.entry)} from the ${removing.section.title.toLowerCase()}.`
            : ''
        }
        confirmLabel="Remove"
        onConfirm={() => void confirmRemove()}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}

function HistorySection(props: {
  section: ListSection;
  entries: Entry[];
  editable: boolean;
  onAdd: () => void;
  onEdit: (entry: Entry) => void;
  onRemove: (entry: Entry) => void;
}) {
  const { section, entries, editable } = props;
  const headingId = `history-${section.field}`;
  return (
    <Card>
      <div aria-labelledby={headingId} role="group">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id={headingId} tabIndex={-1} className="text-heading text-text focus:outline-none">
            {section.title}
          </h2>
          {editable ? (
            <Button variant="secondary" onClick={props.onAdd}>
              <Plus aria-hidden="true" className="h-5 w-5" />
              Add {section.noun}
            </Button>
          ) : null}
        </div>
        {entries.length === 0 ? (
          <p className="text-muted">{section.empty}</p>
        ) : (
          <ul className="grid gap-3" aria-labelledby={headingId}>
            {entries.map((entry) => {
              const name = section.nameOf(entry);
              const details = section.detailsOf(entry).filter(Boolean);
              return (
                <li
                  key={entry.id}
                  data-entry-id={entry.id}
                  className="flex flex-wrap items-start justify-between gap-3 rounded-control bg-surface-muted p-3"
                >
                  <div className="min-w-0 flex-1">
                    <h3 className="break-words font-semibold text-text">{name}</h3>
                    {details.length > 0 ? (
                      <p className="break-words text-small text-muted">{details.join(' · ')}</p>
                    ) : null}
                  </div>
                  {editable ? (
                    <div className="flex gap-2">
                      <Button variant="ghost" aria-label={`Edit ${name}`} onClick={() => props.onEdit(entry)}>
                        <Pencil aria-hidden="true" className="h-5 w-5" />
                        <span className="sr-only sm:not-sr-only">Edit</span>
                      </Button>
                      <Button
                        variant="ghost"
                        aria-label={`Remove ${name}`}
                        onClick={() => props.onRemove(entry)}
                      >
                        <Trash2 aria-hidden="true" className="h-5 w-5" />
                        <span className="sr-only sm:not-sr-only">Remove</span>
                      </Button>
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Card>
  );
}

function LifestyleSection(props: { lifestyle: Lifestyle | null; editable: boolean; onEdit: () => void }) {
  const lines = props.lifestyle ? lifestyleLines(props.lifestyle) : [];
  return (
    <Card>
      <div role="group" aria-labelledby="history-lifestyle">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id="history-lifestyle" tabIndex={-1} className="text-heading text-text focus:outline-none">
            Lifestyle
          </h2>
          {props.editable ? (
            <Button variant="secondary" onClick={props.onEdit}>
              <Pencil aria-hidden="true" className="h-5 w-5" />
              Edit lifestyle
            </Button>
          ) : null}
        </div>
        <dl className="grid gap-2 sm:grid-cols-[max-content_1fr] sm:gap-x-6">
          {lines.map((line) => (
            <div key={line.label} className="contents">
              <dt className="font-semibold text-text">{line.label}</dt>
              <dd className="break-words text-muted">{line.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </Card>
  );
}

/**
 * Links to each section: on a phone the history is a long page, and a caregiver's read-only view has
 * nothing else to reach by keyboard. A link scrolls its section into view and puts the focus on its title.
 */
function SectionLinks() {
  const sections = [
    ...LIST_SECTIONS.map((section) => ({ id: `history-${section.field}`, title: section.title })),
    { id: 'history-lifestyle', title: 'Lifestyle' },
  ];
  return (
    <nav aria-label="Sections of the medical history" className="mb-6">
      <ul className="flex flex-wrap gap-2">
        {sections.map((section) => (
          <li key={section.id}>
            <a
              href={`#${section.id}`}
              onClick={(event) => {
                event.preventDefault();
                const heading = document.getElementById(section.id);
                heading?.scrollIntoView({ block: 'start' });
                heading?.focus({ preventScroll: true });
              }}
              className="inline-flex min-h-11 min-w-11 items-center rounded-full border border-border-strong bg-surface px-4 text-small font-semibold text-text hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
            >
              {section.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
