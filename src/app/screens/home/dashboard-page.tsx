import { Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { CalendarClock, Pill, RefreshCw } from 'lucide-react';
import { formatDateTime, relativeTime } from '../../../domain/date-display';
import type { Permission } from '../../../domain/permissions';
import { SCHEDULE_EMPTY_TEXTS } from '../../../domain/schedule-texts';
import type { Appointment } from '../../../domain/appointments';
import { syncNow } from '../../../local/sync-trigger';
import { Button } from '../../ui/button';
import { screenDrawn } from '../../ui/first-screen';
import { lazyPart } from '../../ui/lazy-part';
import { PageTitle } from '../../ui/page';
import { useOnline } from '../../ui/use-online';
import { useCaregiverPermissionsRead } from '../../shell/use-caregiver-permissions';
import { useSelectedPatientId } from '../../shell/use-selected-patient';
import { useProfile, useSession } from '../../shell/use-session';
import {
  CAREGIVER_PATHS,
  HomeCard,
  linkClass,
  PATIENT_PATHS,
  SectionLink,
  type Paths,
} from '../../features/dashboard/home-card';
import { MedicalIdLink } from '../../features/medical-id/medical-id-link';
import { CheckInCard, FitbitCard, ResultsCard, VitalsCard } from './home-feature-cards';
import { useLabReportsOf } from '../../features/dashboard/use-lab-reports-of';
import { useNextAppointments } from '../../features/dashboard/use-next-appointments';
import { usePrescriptionCount } from '../../features/dashboard/use-prescription-count';
import { useSyncFacts, type SyncFacts } from '../../features/dashboard/use-sync-facts';

// Home (/dashboard and /caregiver/dashboard): what comes next, read from this device's tables (so it
// opens offline), and whether this device's changes reached the server. A screen, as it composes
// features (../README.md): the dashboard's own cards, and today's medicines, the latest lab results, the
// check-in, the vitals and the Fitbit summary brought by their features, each in a chunk loaded after the
// first paint (home-feature-cards.tsx); a caregiver sees a card's content only with the permission for its
// section.

const NEXT_APPOINTMENTS = 3;
/** The longest Home keeps its cards out of sight while today's schedule loads. */
export const SCHEDULE_WAIT_MS = 3000;

/** Home; `children` (the caregiver's summary) come below the cards, drawn once the cards are. */
export function DashboardPage({ children }: { children?: ReactNode }) {
  const profile = useProfile();
  const session = useSession();
  const selected = useSelectedPatientId();
  const heldRead = useCaregiverPermissionsRead();
  const held = heldRead ?? [];
  const caregiver = session?.role === 'Caregiver';
  const patientId = caregiver ? selected : (profile?.patient_id ?? null);
  // A patient may open every section of their own; a caregiver those the selected patient granted.
  const may = (permission: Permission) => !caregiver || held.includes(permission);
  const paths = caregiver ? CAREGIVER_PATHS : PATIENT_PATHS;
  const readsAppointments = may('ReadAppointment');
  const readsPrescriptions = may('ReadPrescription');
  const readsLabReports = may('ReadLabReport');
  const next = useNextAppointments(readsAppointments ? patientId : null, NEXT_APPOINTMENTS);
  const prescriptions = usePrescriptionCount(readsPrescriptions ? patientId : null);
  const reports = useLabReportsOf(readsLabReports ? patientId : null);
  const facts = useSyncFacts();
  // The cards appear together once this device's tables have answered (milliseconds): drawn as each
  // answer came, every card that grew pushed the ones below it down the screen while the person read.
  // A patient's cards wait for the profile too (it names the patient whose records they show), and a
  // caregiver's for the permissions they hold (or a card would say 'no access' until they are read).
  const ready =
    (caregiver ? heldRead !== undefined : profile !== undefined) &&
    next !== undefined &&
    prescriptions !== undefined &&
    reports !== undefined &&
    facts !== undefined;
  // With prescriptions, the first card is today's schedule, loaded after the tables answered (its own
  // chunk) and often the tallest card: drawn as a one-line placeholder first, it grew by hundreds of
  // pixels and pushed every card below it down the screen (a layout shift of 0.67 on a phone). So the
  // cards stay invisible, in their places, until the schedule has read its doses (or failed): then all
  // of Home shows at once, where it stays.
  // On a network that stalls rather than fails, the cards show after SCHEDULE_WAIT_MS all the same.
  const showsSchedule = patientId !== null && readsPrescriptions && (prescriptions ?? 0) > 0;
  const [scheduleDrawnFor, setScheduleDrawnFor] = useState<string | null>(null);
  const scheduleDrawn = useCallback(() => setScheduleDrawnFor(patientId), [patientId]);
  const shown = ready && (!showsSchedule || scheduleDrawnFor === patientId);
  useEffect(() => {
    if (!ready || shown) return;
    const timer = setTimeout(scheduleDrawn, SCHEDULE_WAIT_MS);
    return () => clearTimeout(timer);
  }, [ready, shown, scheduleDrawn]);
  // Home is drawn: what the shell adds around it (the sync client, the weather...) may load now.
  useEffect(() => {
    if (shown) screenDrawn();
  }, [shown]);

  return (
    <>
      <PageTitle
        description={
          caregiver
            ? 'What is next for the person you care for.'
            : 'What is next for your health, at a glance.'
        }
      >
        Dashboard
      </PageTitle>
      {/* One tap from Home: what a first responder needs, offline. */}
      {caregiver ? null : <MedicalIdLink />}
      {caregiver && !selected ? (
        <div
          className="mb-4 rounded-card bg-primary-soft p-4 text-primary-strong"
          data-testid="home-no-patient"
        >
          <p>
            No patient is selected. Patients who invite you appear under Patients; once you select one, their
            appointments show here.
          </p>
          <Link to="/caregiver/patients" className={linkClass}>
            Go to Patients
          </Link>
        </div>
      ) : null}
      <div className="relative">
        {/* Over the cards' place while they are not shown, so that taking it away moves nothing. */}
        {shown ? null : (
          <p className="absolute inset-x-0 top-0 text-muted" role="status">
            Checking your health data...
          </p>
        )}
        {ready ? (
          <div className={`grid gap-4 md:grid-cols-2 ${shown ? '' : 'invisible'}`} aria-busy={!shown}>
            <MedicinesCard
              patientId={patientId}
              caregiver={caregiver}
              allowed={readsPrescriptions}
              prescriptions={prescriptions}
              canMark={may('EditPrescription')}
              canAdd={may('AddPrescription')}
              path={paths.prescriptions}
              onDrawn={scheduleDrawn}
            />
            <NextAppointments
              patientId={patientId}
              next={next}
              allowed={readsAppointments}
              canAdd={may('AddAppointment')}
              path={paths.appointments}
              caregiver={caregiver}
            />
            <SyncCard facts={facts} />
            <ResultsCard
              patientId={patientId}
              caregiver={caregiver}
              allowed={readsLabReports}
              reports={reports}
              path={paths.labReport}
            />
            <CheckInCard patientId={patientId} caregiver={caregiver} allowed={may('ReadMedicalHistory')} />
            <FitbitCard patientId={patientId} caregiver={caregiver} allowed={may('ReadMedicalHistory')} />
            {/* Last: its quick-add buttons make it taller once drawn, and below it nothing moves. */}
            <VitalsCard
              patientId={patientId}
              caregiver={caregiver}
              allowed={may('ReadVitals')}
              caregiverId={caregiver ? (profile?.caregiver_id ?? null) : null}
              canAdd={may('AddVitals')}
            />
          </div>
        ) : null}
      </div>
      {shown ? children : null}
    </>
  );
}

// The schedule loads once the tables said there are prescriptions, in a chunk of its own: it brings Luxon
// and the schedule's rules, and Home's first load is at its budget (tests/build/budget.mjs). Home shows
// its cards once it has drawn (see `shown` above). Nothing of features/medicines is imported here statically, and the import goes
// through a small loader (see features/medicines/load-todays-schedule.ts) so this chunk does not carry the preload list.
const TodaysSchedule = lazyPart(
  () =>
    import('../../features/medicines/load-todays-schedule')
      .then((loader) => loader.loadTodaysSchedule())
      .then((module) => module.TodaysSchedule),
  <p className="text-muted">Today's doses will show when you are back online.</p>,
);

/**
 * Home's first card: today's doses of the patient (the caregiver's selected patient), to tick off here.
 * With no prescription on the device it says so at once; the schedule is loaded only when there is one.
 */
function MedicinesCard({
  patientId,
  caregiver,
  allowed,
  prescriptions,
  canMark,
  canAdd,
  path,
  onDrawn,
}: {
  patientId: string | null;
  caregiver: boolean;
  allowed: boolean;
  /** How many prescriptions of the patient this device holds. */
  prescriptions: number;
  canMark: boolean;
  canAdd: boolean;
  path: Paths['prescriptions'];
  /** Told once the schedule has read its doses, or could not be shown. */
  onDrawn: () => void;
}) {
  const placeholder = (
    <p className="text-muted">
      {caregiver ? 'The patient’s medicines due today show here.' : 'Your medicines due today show here.'}
    </p>
  );
  if (patientId && allowed && prescriptions === 0)
    return (
      <HomeCard id="medicines" title="Today’s medicines" icon={Pill}>
        <div data-testid="schedule-empty">
          <p className="font-semibold text-text">{SCHEDULE_EMPTY_TEXTS.today}</p>
          <p className="mt-1 text-muted">{SCHEDULE_EMPTY_TEXTS.hint}</p>
          <Link to={path} className={`${linkClass} mt-1`}>
            {canAdd ? 'Add a prescription' : 'Go to Prescriptions'}
          </Link>
        </div>
      </HomeCard>
    );
  return (
    <HomeCard id="medicines" title="Today’s medicines" icon={Pill} onFailed={onDrawn}>
      {patientId && allowed ? (
        // Home stays invisible until the schedule has drawn (onDrawn): this placeholder is never seen.
        <Suspense fallback={placeholder}>
          <TodaysSchedule patientId={patientId} canMark={canMark} variant="card" onDrawn={onDrawn} />
        </Suspense>
      ) : (
        <>
          {placeholder}
          <SectionLink allowed={allowed} to={path}>
            Go to Prescriptions
          </SectionLink>
        </>
      )}
    </HomeCard>
  );
}

function NextAppointments({
  patientId,
  next,
  allowed,
  canAdd,
  path,
  caregiver,
}: {
  patientId: string | null;
  /** The next appointments from the device's table (none without a patient or the permission). */
  next: Appointment[];
  allowed: boolean;
  canAdd: boolean;
  path: Paths['appointments'];
  caregiver: boolean;
}) {
  let body: ReactNode;
  if (!patientId) {
    body = <p className="text-muted">Select a patient to see their next appointments.</p>;
  } else if (!allowed) {
    body = <p className="text-muted">The patient has not given you permission to see their appointments.</p>;
  } else if (next.length === 0) {
    body = (
      <>
        <p className="text-muted">
          {caregiver ? 'No upcoming appointments for this patient.' : 'No upcoming appointments.'}{' '}
          {canAdd ? 'Add the next visit, and it is kept on this device even without a signal.' : ''}
        </p>
        <Link to={path} className={`${linkClass} mt-auto`}>
          {canAdd ? 'Add an appointment' : 'Go to Appointments'}
        </Link>
      </>
    );
  } else {
    body = (
      <>
        <ul className="divide-y divide-border">
          {next.map((appointment) => (
            <li key={appointment.id} className="py-2">
              <p className="font-semibold text-text">{appointment.appointment_title}</p>
              <p className="text-muted">
                {formatDateTime(appointment.appointment_date, { zone: appointment.time_zone })}
              </p>
              {appointment.location ? <p className="text-small text-muted">{appointment.location}</p> : null}
            </li>
          ))}
        </ul>
        <Link to={path} className={`${linkClass} mt-auto`}>
          See all appointments
        </Link>
      </>
    );
  }
  return (
    <HomeCard id="appointments" title="Next appointments" icon={CalendarClock}>
      {body}
    </HomeCard>
  );
}

function syncSummary(online: boolean, facts: SyncFacts): string {
  const parts: string[] = [];
  if (facts.waiting > 0) {
    parts.push(
      `${facts.waiting === 1 ? '1 change is' : `${facts.waiting} changes are`} saved on this device and ${
        online ? 'being sent' : 'will be sent when you are back online'
      }.`,
    );
  } else {
    parts.push('Every change is saved on the server.');
  }
  if (facts.failed > 0) {
    parts.push(
      `${facts.failed === 1 ? '1 change was' : `${facts.failed} changes were`} not accepted: open the sync status at the top of the screen to see why, and what you typed.`,
    );
  }
  return parts.join(' ');
}

function SyncCard({ facts }: { facts: SyncFacts }) {
  const online = useOnline();
  const [syncing, setSyncing] = useState(false);
  const run = async () => {
    setSyncing(true);
    try {
      await syncNow();
    } finally {
      setSyncing(false);
    }
  };
  const last = facts.lastSyncAt ? relativeTime(facts.lastSyncAt) : null;
  return (
    <HomeCard id="sync" title="This device" icon={RefreshCw}>
      <p className="font-medium text-text" data-testid="home-sync-state">
        {online ? 'Online' : 'Offline'}
        {facts.waiting > 0 ? ` · ${facts.waiting} waiting` : ''}
        {facts.failed > 0 ? ` · ${facts.failed} failed` : ''}
      </p>
      <p className="mt-1 text-muted">{syncSummary(online, facts)}</p>
      <p className="mt-1 text-small text-muted">
        {last ? `Last synced ${last}.` : 'Not synced yet on this device.'}
      </p>
      <div className="mt-auto pt-3">
        <Button
          variant="secondary"
          className="min-h-11"
          disabled={!online || syncing}
          onClick={() => void run()}
        >
          {syncing ? 'Syncing...' : 'Sync now'}
        </Button>
      </div>
    </HomeCard>
  );
}
