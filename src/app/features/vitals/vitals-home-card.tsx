import { Link } from '@tanstack/react-router';
import { VITAL_KINDS, VITAL_LABELS, type Vital } from '../../../domain/vitals';
import { useSession } from '../../shell/use-session';
import { QuickAdd } from './reading-sheet';
import { useVitalReadings } from './use-vitals';
import { measuredAtText, readingFlag } from './vital-format';
import { useVitalSettings } from './vital-settings';
import { FlagBadge, ReadingValue } from './reading-parts';

// Home's Vitals card: the newest readings at a glance, and one button per kind, so a reading is entered
// in two taps (the kind, then Save) without leaving Home. Read live from this device's table.

/** How many kinds the card shows the latest reading of (the most recently measured first). */
const SHOWN_KINDS = 3;

const linkClass =
  'inline-flex min-h-11 items-center font-semibold text-primary-strong underline focus:outline-none focus-visible:ring-2 focus-visible:ring-focus';

export function VitalsHomeCard({
  patientId,
  caregiverId,
  canAdd,
  path,
}: {
  patientId: string;
  caregiverId: string | null;
  canAdd: boolean;
  path: '/vitals' | '/caregiver/vitals';
}) {
  const ownerId = useSession()?.userId ?? '';
  const [settings] = useVitalSettings(ownerId, patientId);
  const readings = useVitalReadings(patientId);
  if (!readings) return <p className="text-muted">Reading the vitals on this device...</p>;
  const latest = VITAL_KINDS.flatMap((kind) => {
    const reading = readings.find((candidate) => candidate.kind === kind);
    return reading ? [reading] : [];
  })
    .sort((a, b) => Date.parse(b.measured_at) - Date.parse(a.measured_at))
    .slice(0, SHOWN_KINDS);
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-3" data-testid="vitals-home">
      {latest.length === 0 ? (
        <p className="text-muted">
          {canAdd ? 'No readings yet. Choose what you measured to add one.' : 'No readings yet.'}
        </p>
      ) : (
        <ul className="divide-y divide-border">
          {latest.map((reading: Vital) => (
            <li key={reading.id} className="py-2">
              <p className="text-small font-semibold text-muted">{VITAL_LABELS[reading.kind]}</p>
              <ReadingValue reading={reading} settings={settings} />
              <p className="text-small text-muted">{measuredAtText(reading.measured_at)}</p>
              <FlagBadge flag={readingFlag(reading, settings)} />
            </li>
          ))}
        </ul>
      )}
      {canAdd ? <QuickAdd patientId={patientId} caregiverId={caregiverId} units={settings.units} /> : null}
      <Link to={path} className={`${linkClass} mt-auto`}>
        See all vitals
      </Link>
    </div>
  );
}
