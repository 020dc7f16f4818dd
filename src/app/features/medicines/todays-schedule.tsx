import { Suspense, useEffect, useId, useState } from 'react';
import { lazyPart } from '../../ui/lazy-part';
import { Link } from '@tanstack/react-router';
import { AlertTriangle, CalendarCheck, Check, ChevronLeft, ChevronRight, Clock, X } from 'lucide-react';
import {
  DOSE_MARK_MESSAGES,
  groupByTime,
  type ScheduledDose,
  type ScheduleEntry,
  type ScheduleSlot,
} from '../../../domain/medicine-schedule';
import { formatClockTime } from '../../../domain/date-display';
import { prescriptionsResource } from '../../../domain/resources/prescriptions';
import { SCHEDULE_EMPTY_TEXTS } from '../../../domain/schedule-texts';
import { userDb } from '../../../local/db';
import { Badge } from '../../ui/badge';
import { useCaregiverPermissions } from '../../shell/use-caregiver-permissions';
import { useProfile, useSession } from '../../shell/use-session';
import { AdherenceChart, type AdherencePeriod } from './adherence-chart';
import { adherenceSummary, dayLabel, doseBadge, shiftDay, slotSummary } from './schedule-format';
import { localDay, useAdherence, useDaySchedule, useNow } from './use-medicine-schedule';

/** Marking a dose: loaded once the schedule is drawn, not with Home's first screen (see below). */
const loadDoseMarks = () => import('../../../local/dose-marks');

// The daily medicine schedule, read from the device's tables so it works with
// no signal: the day's medicines grouped by time, each dose with its state in words and colour, and, for
// whoever may mark doses, 'Taken' and 'Not taken' buttons (56 px high: it is used at arm's length, often
// by someone holding the medicine in the other hand) that write through the outbox. The 'page' variant
// adds a day picker (a dose is often marked late), adherence over 7 or 30 days, and the per-device
// reminder switch; the 'card' variant is Home's first card.

// Loaded only on the page: it brings the push client (and with it the HTTP client) that Home's card
// does not need.
const RemindersSwitch = lazyPart(
  () => import('./reminders-switch').then((module) => module.RemindersSwitch),
  <p className="text-muted">Reminders can be set up when you are back online.</p>,
);

export type TodaysScheduleProps = {
  /** The patient whose schedule (the caregiver's selected patient, or the signed-in patient). */
  patientId: string | null;
  /** Whether this person may mark doses (the patient, or a caregiver holding EditPrescription). */
  canMark: boolean;
  /** 'page': the full schedule on /prescriptions; 'card': the Home card's compact form. */
  variant: 'page' | 'card';
  /**
   * Told once the day's doses and the week's adherence have been read from the device (the card's whole
   * content): Home shows its cards then, so the card does not grow under the ones below it.
   */
  onDrawn?: () => void;
};

const linkClass =
  'inline-flex min-h-11 items-center font-semibold text-primary-strong underline focus:outline-none focus-visible:ring-2 focus-visible:ring-focus';

const FORM_NAMES: Record<string, string> = {
  tablet: 'Tablet',
  capsule: 'Capsule',
  liquid: 'Liquid',
  injection: 'Injection',
  inhaler: 'Inhaler',
  cream: 'Cream',
  drops: 'Drops',
  patch: 'Patch',
  other: '',
};

type Marker = { id: string; name: string };

export function TodaysSchedule({ patientId, canMark, variant, onDrawn }: TodaysScheduleProps) {
  const now = useNow();
  const today = localDay(now);
  // null follows today, also across midnight; a picked day stays until 'Today' is pressed.
  const [picked, setPicked] = useState<string | null>(null);
  const date = variant === 'page' ? (picked ?? today) : today;
  const [period, setPeriod] = useState<AdherencePeriod>(7);
  const entries = useDaySchedule(patientId, date, now);
  const adherence = useAdherence(patientId, today, variant === 'page' ? period : 7, now);
  const session = useSession();
  const profile = useProfile();
  const held = useCaregiverPermissions();
  const [announcement, setAnnouncement] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const read = entries !== undefined && adherence !== undefined;
  useEffect(() => {
    if (read) onDrawn?.();
  }, [read, onDrawn]);
  // The write path (the outbox and the schemas a mark is checked with) after the schedule is drawn, so a
  // tap on Taken a moment later, even with no signal, finds it here.
  useEffect(() => {
    if (read) void loadDoseMarks().catch(() => undefined);
  }, [read]);

  const caregiver = session?.role === 'Caregiver';
  const path = caregiver ? '/caregiver/prescriptions' : '/prescriptions';
  const canAdd = !caregiver || held.includes(prescriptionsResource.permissions.add);
  const marker: Marker | null = profile
    ? { id: profile.id, name: profile.name }
    : session
      ? { id: session.userId, name: '' }
      : null;
  // Doses of a day still to come are not marked ahead; any earlier day may be, late.
  const markable = canMark && marker !== null && date <= today;

  const mark = async (entry: ScheduleEntry, dose: ScheduledDose, isTaken: boolean) => {
    if (!patientId || !marker || dose.is_taken === isTaken) return;
    setFailure(null);
    try {
      const { markDose } = await loadDoseMarks();
      await markDose(userDb(), {
        patient_id: patientId,
        schedule_id: entry.schedule_id,
        date,
        time: dose.time,
        is_taken: isTaken,
        marked_by: marker.id,
        marked_by_name: marker.name,
        label: `${entry.label} - ${dose.time}`,
      });
      const said = isTaken ? DOSE_MARK_MESSAGES.markedTaken : DOSE_MARK_MESSAGES.markedNotTaken;
      setAnnouncement(`${entry.label}, ${formatClockTime(dose.time)}: ${said}`);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'The dose could not be marked.');
    }
  };

  let body;
  if (!patientId) {
    body = <p className="text-muted">Select a patient to see their medicines.</p>;
  } else if (entries === undefined) {
    body = <p className="text-muted">Checking the medicines...</p>;
  } else if (entries.length === 0) {
    body = (
      <div data-testid="schedule-empty">
        <p className="font-semibold text-text">
          {date === today
            ? SCHEDULE_EMPTY_TEXTS.today
            : date < today
              ? 'No medicines were due on this day.'
              : 'No medicines are due on this day.'}
        </p>
        <p className="mt-1 text-muted">{SCHEDULE_EMPTY_TEXTS.hint}</p>
        {variant === 'card' ? (
          <Link to={path} className={`${linkClass} mt-1`}>
            {canAdd ? 'Add a prescription' : 'Go to Prescriptions'}
          </Link>
        ) : null}
      </div>
    );
  } else {
    body = (
      <ol
        className={variant === 'page' ? 'space-y-6' : 'space-y-4'}
        aria-label={`Medicines, ${dayLabel(date, today)}`}
      >
        {groupByTime(entries).map((slot) => (
          <TimeSlot
            key={slot.time}
            slot={slot}
            date={date}
            variant={variant}
            markable={markable}
            onMark={(entry, dose, isTaken) => void mark(entry, dose, isTaken)}
          />
        ))}
      </ol>
    );
  }

  const live = (
    <>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {failure ? (
        <p role="alert" className="mt-3 rounded-control bg-danger-soft p-3 text-small text-danger-strong">
          {failure}
        </p>
      ) : null}
    </>
  );

  if (variant === 'card') {
    return (
      <div data-testid="medicine-schedule" className="flex flex-1 flex-col">
        {body}
        {live}
        {patientId && adherence && adherence.percent !== null ? (
          <p className="mt-3 text-small text-muted" data-testid="adherence-summary">
            {adherenceSummary(adherence, 7)}
          </p>
        ) : null}
        {patientId && entries && entries.length > 0 ? (
          <Link to={path} className={`${linkClass} mt-auto pt-2`}>
            Open the full schedule
          </Link>
        ) : null}
      </div>
    );
  }

  return (
    <div data-testid="medicine-schedule">
      <section aria-labelledby="medicine-schedule-heading">
        <h2 id="medicine-schedule-heading" className="mb-3 flex items-center gap-2 text-heading text-text">
          <CalendarCheck aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
          Medicine schedule
        </h2>
        {patientId ? <DayPicker date={date} today={today} onPick={setPicked} /> : null}
        {body}
        {live}
      </section>
      {patientId ? <AdherenceChart adherence={adherence} period={period} onPeriod={setPeriod} /> : null}
      {patientId ? (
        <Suspense fallback={null}>
          <RemindersSwitch />
        </Suspense>
      ) : null}
    </div>
  );
}

function DayPicker({
  date,
  today,
  onPick,
}: {
  date: string;
  today: string;
  onPick: (date: string | null) => void;
}) {
  const pickDay = (next: string) => onPick(next === today ? null : next);
  // Three buttons side by side on a 360 px phone: the arrows show only where there is room for them.
  const buttonClass =
    'inline-flex min-h-14 items-center justify-center gap-1 rounded-control border text-center leading-tight border-border-strong bg-surface px-2 text-base font-semibold text-text hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus disabled:cursor-not-allowed disabled:opacity-60';
  return (
    <div className="mb-4">
      <p className="mb-2 text-title text-text" aria-live="polite" data-testid="schedule-day">
        {dayLabel(date, today)}
      </p>
      <div role="group" aria-label="Day" className="grid grid-cols-3 gap-2">
        <button type="button" className={buttonClass} onClick={() => pickDay(shiftDay(date, -1))}>
          <ChevronLeft aria-hidden="true" className="hidden h-5 w-5 shrink-0 sm:block" />
          Previous day
        </button>
        <button type="button" className={buttonClass} disabled={date === today} onClick={() => onPick(null)}>
          Today
        </button>
        <button type="button" className={buttonClass} onClick={() => pickDay(shiftDay(date, 1))}>
          Next day
          <ChevronRight aria-hidden="true" className="hidden h-5 w-5 shrink-0 sm:block" />
        </button>
      </div>
    </div>
  );
}

function TimeSlot({
  slot,
  date,
  variant,
  markable,
  onMark,
}: {
  slot: ScheduleSlot;
  date: string;
  variant: 'page' | 'card';
  markable: boolean;
  onMark: (entry: ScheduleEntry, dose: ScheduledDose, isTaken: boolean) => void;
}) {
  const headingId = useId();
  const summary = slotSummary(slot);
  const missed = slot.items.some((item) => item.dose.state === 'missed');
  return (
    <li data-testid={`slot-${slot.time}`}>
      <h3
        id={headingId}
        className="mb-2 flex flex-wrap items-baseline gap-x-3 border-b border-border pb-1 text-text"
      >
        <span className="text-title tabular-nums">{formatClockTime(slot.time)}</span>
        <span className={`text-base font-semibold ${missed ? 'text-danger-strong' : 'text-muted'}`}>
          {summary}
        </span>
      </h3>
      <ul className="space-y-3">
        {slot.items.map(({ entry, dose }) => (
          <DoseRow
            key={entry.schedule_id}
            entry={entry}
            dose={dose}
            date={date}
            variant={variant}
            markable={markable}
            onMark={onMark}
          />
        ))}
      </ul>
    </li>
  );
}

const STATE_ICONS = {
  taken: <Check />,
  'not-taken': <X />,
  missed: <AlertTriangle />,
  due: <Clock />,
  upcoming: <Clock />,
  'before-added': <Clock />,
} as const;

function DoseRow({
  entry,
  dose,
  date,
  variant,
  markable,
  onMark,
}: {
  entry: ScheduleEntry;
  dose: ScheduledDose;
  date: string;
  variant: 'page' | 'card';
  markable: boolean;
  onMark: (entry: ScheduleEntry, dose: ScheduledDose, isTaken: boolean) => void;
}) {
  const badge = doseBadge(dose, date, entry.time_zone);
  const details = [FORM_NAMES[entry.form] ?? '', entry.directions].filter(Boolean).join(' · ');
  const missed = dose.state === 'missed';
  return (
    <li
      data-testid="dose"
      data-dose={`${entry.schedule_id} ${dose.time}`}
      data-state={dose.state}
      className={`flex flex-wrap items-center justify-between gap-3 rounded-card ring-1 ring-border ${
        variant === 'page' ? 'p-4 shadow-card' : 'p-3'
      } ${missed ? 'border-l-8 border-danger bg-danger-soft' : 'bg-surface'}`}
    >
      <div className="min-w-0 flex-[1_1_12rem]">
        <p className="text-title text-text [overflow-wrap:anywhere]">{entry.label}</p>
        {details ? <p className="mt-0.5 text-base text-muted [overflow-wrap:anywhere]">{details}</p> : null}
        <Badge tone={badge.tone} icon={STATE_ICONS[dose.state]} className="mt-2">
          {badge.text}
        </Badge>
      </div>
      {markable ? (
        <div
          role="group"
          aria-label={`${entry.label} at ${formatClockTime(dose.time)}`}
          className="grid flex-[1_1_14rem] grid-cols-2 gap-2"
        >
          <MarkButton pressed={dose.is_taken === true} tone="taken" onClick={() => onMark(entry, dose, true)}>
            Taken
          </MarkButton>
          <MarkButton
            pressed={dose.is_taken === false}
            tone="not-taken"
            onClick={() => onMark(entry, dose, false)}
          >
            Not taken
          </MarkButton>
        </div>
      ) : null}
    </li>
  );
}

function MarkButton({
  pressed,
  tone,
  onClick,
  children,
}: {
  pressed: boolean;
  tone: 'taken' | 'not-taken';
  onClick: () => void;
  children: string;
}) {
  const pressedClass =
    tone === 'taken'
      ? 'border-success bg-success-soft text-success-strong ring-2 ring-success'
      : 'border-warning bg-warning-soft text-warning-strong ring-2 ring-warning';
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className={`inline-flex min-h-14 min-w-14 items-center justify-center gap-2 rounded-control border px-3 text-center text-lg leading-tight font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-focus focus-visible:ring-offset-2 focus-visible:ring-offset-surface ${
        pressed ? pressedClass : 'border-border-strong bg-surface text-text hover:bg-surface-muted'
      }`}
    >
      {pressed ? (
        tone === 'taken' ? (
          <Check aria-hidden="true" className="h-5 w-5 shrink-0" />
        ) : (
          <X aria-hidden="true" className="h-5 w-5 shrink-0" />
        )
      ) : null}
      {children}
    </button>
  );
}
