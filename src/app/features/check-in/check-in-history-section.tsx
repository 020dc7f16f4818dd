import { useId } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import toast from 'react-hot-toast';
import { MOOD_SCREENING_SHARING_LABEL, type CheckInDaySummary } from '../../../domain/check-in';
import { deviceDay } from '../../../domain/clock';
import { formatDay } from '../../../domain/date-display';
import { hasUserDb, userDb } from '../../../local/db';
import { checkInSummaries, moodScreeningShared } from '../../../local/check-in';
import { saveMoodScreeningSharing } from '../../../local/medical-history';
import { Chart, type ChartProps } from '../../ui/chart/chart';

// The check-ins of the last 30 days, charted: mood, sleep, pain and the PHQ-2 total,
// one point a day, read live from the replica (a check-in answered offline shows at once). A day with
// no answer is a gap, not a zero. Shown with the medical history, where a check-in's account belongs.
//
// The mood screening (PHQ-2) is the patient's to share: the patient sees its chart and the switch that
// shares it with the caregivers who read their history; a caregiver sees nothing of it unless the patient
// turned that on (src/domain/README.md). The server leaves the answers out of what such a caregiver's
// device gets; the chart is hidden here too, so a device that still holds older answers shows none.

export const CHART_DAYS = 30;

/** The `count` device days up to today, oldest first ('YYYY-MM-DD'). */
export function lastDays(count: number, now: Date = new Date()): string[] {
  return Array.from({ length: count }, (_, index) => {
    const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (count - 1 - index), 12);
    return deviceDay(day);
  });
}

const labelOf = (day: string) => formatDay(day);

const pointsOf = (days: readonly CheckInDaySummary[], value: (day: CheckInDaySummary) => number | null) =>
  days.map((day) => ({ label: labelOf(day.day), value: value(day) }));

/** The charts, each one answer over the days, on its own fixed scale. */
const CHARTS: readonly (Omit<ChartProps, 'points'> & {
  value: (day: CheckInDaySummary) => number | null;
  /** Made from the mood screening's answers: shown to a caregiver only while the patient shares them. */
  moodScreening?: true;
})[] = [
  {
    title: 'Mood (1 Bad to 5 Very good)',
    unit: 'out of 5',
    kind: 'line',
    min: 1,
    max: 5,
    value: (day) => day.mood,
  },
  { title: 'Sleep', unit: 'hours', kind: 'bar', min: 0, max: 10, value: (day) => day.sleep_hours },
  {
    title: 'Pain (0 none to 10 worst)',
    unit: 'out of 10',
    kind: 'line',
    min: 0,
    max: 10,
    value: (day) => day.pain,
  },
  {
    title: 'PHQ-2 score (3 or more: worth talking about with your doctor)',
    unit: 'out of 6',
    kind: 'bar',
    min: 0,
    max: 6,
    value: (day) => day.phq2_score,
    moodScreening: true,
  },
];

/** The patient's switch: share the mood screening's answers with the caregivers who read their history. */
function MoodScreeningSharing({ patientId, shared }: { patientId: string; shared: boolean }) {
  const hintId = useId();
  const toggle = () => {
    saveMoodScreeningSharing(userDb(), patientId, !shared).catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : 'This could not be changed.');
    });
  };
  return (
    <div className="mb-4">
      <button
        type="button"
        role="switch"
        aria-checked={shared}
        aria-describedby={hintId}
        onClick={toggle}
        className="flex min-h-11 w-full items-center justify-between gap-3 rounded-control px-1 text-left text-base font-semibold text-text hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
      >
        <span>{MOOD_SCREENING_SHARING_LABEL}</span>
        <span
          aria-hidden="true"
          className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border transition-colors ${
            shared ? 'border-primary bg-primary' : 'border-border-strong bg-surface-muted'
          }`}
        >
          <span
            className={`inline-block h-5 w-5 rounded-full bg-surface shadow transition-transform ${
              shared ? 'translate-x-6' : 'translate-x-1'
            }`}
          />
        </span>
      </button>
      <p id={hintId} className="mt-1 px-1 text-small text-muted">
        {shared
          ? 'On: they see these answers and their score with your other check-in answers.'
          : 'Off: they see your other check-in answers, but not these.'}
      </p>
    </div>
  );
}

export function CheckInHistorySection({
  patientId,
  viewer,
}: {
  patientId: string;
  /** The patient sees their own check-ins whole and decides what is shared; a caregiver, what is. */
  viewer: 'patient' | 'caregiver';
}) {
  const headingId = useId();
  const today = deviceDay();
  const days = useLiveQuery(
    async () => (hasUserDb() ? checkInSummaries(userDb(), patientId, lastDays(CHART_DAYS)) : undefined),
    [patientId, today],
  );
  const shared = useLiveQuery(
    async () => (hasUserDb() ? moodScreeningShared(userDb(), patientId) : undefined),
    [patientId],
  );
  const answered = days?.filter((day) => day.status !== null).length ?? 0;
  const showsScreening = viewer === 'patient' || shared === true;
  const charts = CHARTS.filter((chart) => showsScreening || !chart.moodScreening);
  return (
    <section aria-labelledby={headingId} className="mt-8" data-testid="check-in-history">
      <h2 id={headingId} className="mb-1 text-heading text-text">
        Check-ins, last {CHART_DAYS} days
      </h2>
      {viewer === 'patient' && shared !== undefined ? (
        <MoodScreeningSharing patientId={patientId} shared={shared} />
      ) : null}
      {!days ? (
        <p className="text-muted">Reading the check-ins on this device...</p>
      ) : answered === 0 ? (
        <p className="text-muted">No check-ins in the last {CHART_DAYS} days.</p>
      ) : (
        <>
          <p className="mb-4 text-muted">
            Checked in on {answered} of the last {CHART_DAYS} days.
          </p>
          <div className="grid gap-6 md:grid-cols-2">
            {charts.map(({ value, moodScreening: _screening, ...chart }) => (
              <Chart key={chart.title} {...chart} points={pointsOf(days, value)} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
