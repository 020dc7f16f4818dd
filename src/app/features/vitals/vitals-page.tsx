import { useEffect, useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { CloudUpload, TriangleAlert } from 'lucide-react';
import {
  displayUnit,
  hasTarget,
  VITAL_KINDS,
  VITAL_LABELS,
  VITAL_MESSAGES,
  type Vital,
  type VitalKind,
} from '../../../domain/vitals';
import { userDb } from '../../../local/db';
import { removeRecord } from '../../../local/record-writes';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Card, PageTitle } from '../../ui/page';
import { Sheet } from '../../ui/sheet';
import { useSession } from '../../shell/use-session';
import { FlagBadge, ReadingValue } from './reading-parts';
import { QuickAdd, ReadingSheet, type SheetState } from './reading-sheet';
import { useEnteredBy, useUnsentVitals, useVitalReadings, type SendState } from './use-vitals';
import { VitalCharts } from './vital-charts';
import { measuredAtText, readingFlag, shownTarget } from './vital-format';
import { useVitalSettings, type VitalSettings } from './vital-settings';
import { VitalSettingsForm } from './vital-settings-form';

// /vitals (the patient) and /caregiver/vitals (the selected patient, with ReadVitals): the latest reading
// of each kind, the charts, every reading newest first, and the person's units and targets, all from this
// device's table (offline too). Adding, correcting and deleting follow the caregiver's permissions.

export type VitalAbilities = { add: boolean; edit: boolean; delete: boolean };
type Props = { patientId: string | null; caregiverId: string | null; can: VitalAbilities };

/** How many readings the list shows before "Show more". */
const PAGE = 20;

export function VitalsPage({ patientId, caregiverId, can }: Props) {
  const title = (
    <PageTitle
      description={
        caregiverId
          ? 'The patient’s blood pressure, pulse, weight and more, on this device even without a signal.'
          : 'Your blood pressure, pulse, weight and more, on this device even without a signal.'
      }
    >
      Vitals
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
  return (
    <>
      {title}
      <PatientVitals patientId={patientId} caregiverId={caregiverId} can={can} />
    </>
  );
}

function PatientVitals({ patientId, caregiverId, can }: Props & { patientId: string }) {
  const ownerId = useSession()?.userId ?? '';
  const [settings, saveSettings] = useVitalSettings(ownerId, patientId);
  const readings = useVitalReadings(patientId);
  const unsent = useUnsentVitals();
  const enteredBy = useEnteredBy(caregiverId);
  const [sheet, setSheet] = useState<SheetState>(null);
  const [deleting, setDeleting] = useState<Vital | null>(null);
  const [shown, setShown] = useState(PAGE);
  const [savedId, setSavedId] = useState<string | null>(null);

  if (!readings) return <p className="text-muted">Reading the vitals on this device...</p>;

  const confirmDelete = async () => {
    if (!deleting) return;
    await removeRecord(userDb(), 'vitals', deleting.id);
    setDeleting(null);
    toast.success(VITAL_MESSAGES.deleted);
  };

  return (
    <>
      {can.add ? (
        <Card className="mb-6">
          <QuickAdd patientId={patientId} caregiverId={caregiverId} units={settings.units} />
        </Card>
      ) : null}
      <LatestReadings readings={readings} settings={settings} />
      <VitalCharts readings={readings} settings={settings} />
      <section aria-labelledby="vital-readings-heading" className="mb-8">
        <h2 id="vital-readings-heading" className="mb-3 text-heading text-text">
          Readings
        </h2>
        {readings.length === 0 ? (
          <p className="text-muted">
            No readings yet.{can.add ? ' Choose what you measured above to add the first.' : ''}
          </p>
        ) : (
          <>
            <ul className="space-y-3" data-testid="vital-readings">
              {readings.slice(0, shown).map((reading) => (
                <ReadingItem
                  key={reading.id}
                  reading={reading}
                  settings={settings}
                  sendState={unsent.get(reading.id)}
                  enteredBy={enteredBy(reading.caregiver_id)}
                  can={can}
                  focus={reading.id === savedId}
                  onFocused={() => setSavedId(null)}
                  onEdit={() => setSheet({ kind: reading.kind, editing: reading })}
                  onDelete={() => setDeleting(reading)}
                />
              ))}
            </ul>
            {readings.length > shown ? (
              <Button variant="secondary" className="mt-3" onClick={() => setShown(shown + PAGE)}>
                Show more readings
              </Button>
            ) : null}
          </>
        )}
      </section>
      <UnitsAndTargets settings={settings} onSave={saveSettings} />
      <ReadingSheet
        state={sheet}
        patientId={patientId}
        caregiverId={caregiverId}
        units={settings.units}
        onClose={() => setSheet(null)}
        onSaved={setSavedId}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete reading"
        message={
          deleting
            ? `Delete the ${VITAL_LABELS[deleting.kind].toLowerCase()} reading of ${measuredAtText(deleting.measured_at)}? This cannot be undone.`
            : ''
        }
        confirmLabel="Delete"
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

function LatestReadings({ readings, settings }: { readings: readonly Vital[]; settings: VitalSettings }) {
  const latest = (kind: VitalKind) => readings.find((reading) => reading.kind === kind);
  return (
    <section aria-labelledby="vital-latest-heading" className="mb-8">
      <h2 id="vital-latest-heading" className="mb-3 text-heading text-text">
        Latest
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="vital-latest">
        {VITAL_KINDS.map((kind) => {
          const reading = latest(kind);
          return (
            <li
              key={kind}
              data-kind={kind}
              className="min-w-0 rounded-card bg-surface p-4 text-text shadow-card ring-1 ring-border"
            >
              <h3 className="font-semibold text-text">{VITAL_LABELS[kind]}</h3>
              {reading ? (
                <>
                  <ReadingValue reading={reading} settings={settings} />
                  <p className="text-small text-muted">{measuredAtText(reading.measured_at)}</p>
                  <FlagBadge flag={readingFlag(reading, settings)} />
                </>
              ) : (
                <p className="text-muted">No reading yet.</p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function ReadingItem({
  reading,
  settings,
  sendState,
  enteredBy,
  can,
  focus,
  onFocused,
  onEdit,
  onDelete,
}: {
  reading: Vital;
  settings: VitalSettings;
  sendState: SendState | undefined;
  enteredBy: string | null;
  can: VitalAbilities;
  focus: boolean;
  onFocused: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const ref = useRef<HTMLLIElement>(null);
  // After a save, focus moves to the reading, so a keyboard or screen reader user hears what was saved.
  useEffect(() => {
    if (!focus) return;
    ref.current?.focus();
    onFocused();
  }, [focus, onFocused]);
  const when = measuredAtText(reading.measured_at);
  const named = `${VITAL_LABELS[reading.kind].toLowerCase()} reading of ${when}`;
  return (
    <li
      ref={ref}
      tabIndex={-1}
      data-vital-id={reading.id}
      className="flex flex-wrap items-start justify-between gap-3 rounded-card bg-surface p-4 text-text shadow-card ring-1 ring-border focus:outline-none focus:ring-2 focus:ring-focus"
    >
      <div className="min-w-0">
        <p className="font-semibold text-text">{VITAL_LABELS[reading.kind]}</p>
        <ReadingValue reading={reading} settings={settings} />
        <p className="text-text">{when}</p>
        {enteredBy ? (
          <p className="text-small text-muted" data-testid="entered-by">
            Entered by {enteredBy}
          </p>
        ) : null}
        {reading.note ? (
          <p className="text-small text-muted [overflow-wrap:anywhere]">{reading.note}</p>
        ) : null}
        <div className="mt-1 flex flex-wrap gap-2">
          <FlagBadge flag={readingFlag(reading, settings)} />
          {sendState === 'waiting' ? (
            <Badge tone="info" icon={<CloudUpload />}>
              Waiting to send
            </Badge>
          ) : sendState === 'refused' ? (
            <Badge tone="danger" icon={<TriangleAlert />}>
              Not accepted: see the sync status
            </Badge>
          ) : null}
        </div>
      </div>
      <div className="flex gap-2">
        {can.edit ? (
          <Button variant="secondary" onClick={onEdit} aria-label={`Edit ${named}`}>
            Edit
          </Button>
        ) : null}
        {can.delete ? (
          <Button variant="ghost" onClick={onDelete} aria-label={`Delete ${named}`}>
            Delete
          </Button>
        ) : null}
      </div>
    </li>
  );
}

function UnitsAndTargets({
  settings,
  onSave,
}: {
  settings: VitalSettings;
  onSave: (settings: VitalSettings) => string | null;
}) {
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const targetText = (kind: VitalKind) => {
    const unit = displayUnit(kind, settings.units);
    if (kind === 'blood_pressure') {
      const [top, bottom] = [
        shownTarget(kind, 'systolic', settings),
        shownTarget(kind, 'diastolic', settings),
      ];
      return top && bottom
        ? `${top.low}–${top.high} / ${bottom.low}–${bottom.high} ${unit}`
        : 'No target set';
    }
    const target = shownTarget(kind, 'value', settings);
    return target && hasTarget(target) ? `${target.low}–${target.high} ${unit}` : 'No target set';
  };
  return (
    <section aria-labelledby={headingId} className="mb-8" data-testid="vital-settings">
      <h2 id={headingId} className="mb-1 text-heading text-text">
        Units and targets
      </h2>
      <p className="mb-3 text-muted">
        Kept on this device. Readings are shown in these units; each keeps the unit it was entered in.
      </p>
      <dl className="mb-3 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="text-muted">Units</dt>
        <dd className="text-text">
          Weight in {settings.units.weight}, blood glucose in {settings.units.blood_glucose}, temperature in{' '}
          {settings.units.temperature}
        </dd>
        {VITAL_KINDS.map((kind) => (
          <div key={kind} className="contents">
            <dt className="text-muted">{VITAL_LABELS[kind]} target</dt>
            <dd className="text-text">{targetText(kind)}</dd>
          </div>
        ))}
      </dl>
      <Button variant="secondary" onClick={() => setEditing(true)}>
        Change units and targets
      </Button>
      <Sheet open={editing} onClose={() => setEditing(false)} title="Units and targets" size="md">
        {editing ? (
          <VitalSettingsForm
            settings={settings}
            onSave={(next) => {
              const problem = onSave(next);
              if (!problem) {
                setEditing(false);
                toast.success('Units and targets saved on this device.');
              }
              return problem;
            }}
            onCancel={() => setEditing(false)}
          />
        ) : null}
      </Sheet>
    </section>
  );
}
