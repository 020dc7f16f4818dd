import { Suspense, type ReactNode } from 'react';
import { Activity, FlaskConical, Gauge, HeartPulse } from 'lucide-react';
import type { LabReport } from '../../../domain/lab-reports';
import { HomeCard, NO_ACCESS_TEXT, type Paths } from '../../features/dashboard/home-card';
import { LatestResults } from '../../features/dashboard/latest-results';
import { useScreenDrawn } from '../../ui/first-screen';
import { lazyPart } from '../../ui/lazy-part';

// Home's cards whose content other features bring: the latest lab results, today's check-in, the vitals
// and the Fitbit summary. The results are drawn with Home's first paint (their rows come from the table
// Home reads, and their code is small): loaded later, the card grew from one line to two reports and
// pushed the cards below it. The others' content is a chunk loaded after the first paint (through
// load-home-cards.ts, see there why), so Home's first load carries only these shells
// (tests/build/budget.mjs); until a chunk is there the card says what it is doing in the room its content
// takes. A caregiver without the section's permission gets no content at all, only why. The chunks are
// asked for once Home is drawn (ui/first-screen.ts): asked for while its first cards were being drawn,
// their loading and running took a phone's network and main thread from that first paint
// (tests/bench/lighthouse.ts).

const homeCards = () => import('./load-home-cards');
// Offline before the service worker kept them, a card says when its content will come instead of
// taking Home down with it (ui/lazy-part.tsx).
const notHereYet = <p className="text-muted">This card will show when you are back online.</p>;
const CheckInHomeCard = lazyPart(
  () =>
    homeCards()
      .then((loader) => loader.loadCheckInHomeCard())
      .then((module) => module.CheckInHomeCard),
  notHereYet,
);
const VitalsHomeCard = lazyPart(
  () =>
    homeCards()
      .then((loader) => loader.loadVitalsHomeCard())
      .then((module) => module.VitalsHomeCard),
  notHereYet,
);
const FitbitHomeCard = lazyPart(
  () =>
    homeCards()
      .then((loader) => loader.loadFitbitHomeCard())
      .then((module) => module.FitbitHomeCard),
  notHereYet,
);

type CardProps = {
  /** The patient whose card this is: the signed-in patient, or the caregiver's selected patient. */
  patientId: string | null;
  caregiver: boolean;
  /** Whether the card may show the patient's data (always for the patient themself). */
  allowed: boolean;
};

/** What a card says when there is nothing it may show: no patient (yet), or no permission. */
function Unavailable({ patientId, caregiver, allowed, what }: CardProps & { what: string }) {
  if (!patientId)
    return (
      <p className="text-muted">
        {caregiver ? `Select a patient to see their ${what}.` : 'Checking your health data...'}
      </p>
    );
  if (!allowed) return <p className="text-muted">{NO_ACCESS_TEXT}</p>;
  return null;
}

const loading = (text: string) => <p className="text-muted">{text}</p>;

/**
 * A card's content, or what the card is doing until Home is drawn and the content's chunk is there.
 * `reserve` keeps the room the content takes (a min-height class), from the first paint and through the
 * content's own loading, for a card whose content is much taller than this sentence: grown after the first
 * paint, it would push the card below it, which on a laptop starts at the bottom of the first screen.
 */
function AfterFirstPaint({
  waiting,
  reserve,
  children,
}: {
  waiting: string;
  reserve?: string;
  children: ReactNode;
}) {
  const drawn = useScreenDrawn();
  return (
    <div className={`flex min-w-0 flex-1 flex-col ${reserve ?? ''}`}>
      <Suspense fallback={loading(waiting)}>{drawn ? children : loading(waiting)}</Suspense>
    </div>
  );
}

export function ResultsCard({
  patientId,
  caregiver,
  allowed,
  reports,
  path,
}: CardProps & {
  /** The patient's lab reports on this device, read by Home with its other tables. */
  reports: readonly LabReport[];
  path: Paths['labReport'];
}) {
  return (
    <HomeCard id="results" title="Latest results" icon={FlaskConical}>
      {patientId && allowed ? (
        <div className="flex min-w-0 flex-1 flex-col">
          <LatestResults reports={reports} caregiver={caregiver} path={path} />
        </div>
      ) : (
        <Unavailable
          patientId={patientId}
          caregiver={caregiver}
          allowed={allowed}
          what="newest lab results"
        />
      )}
    </HomeCard>
  );
}

export function CheckInCard({ patientId, caregiver, allowed }: CardProps) {
  return (
    <HomeCard id="check-in" title="Check-in" icon={HeartPulse}>
      {patientId && allowed ? (
        // A patient's first question with its five answers was measured 404 px tall in the one column of a
        // 390 px phone, 304 px in a laptop's two; a caregiver reads how far the patient got, no question.
        <AfterFirstPaint
          waiting="Checking today’s check-in..."
          reserve={caregiver ? 'min-h-76' : 'min-h-101 xl:min-h-76'}
        >
          <CheckInHomeCard patientId={patientId} />
        </AfterFirstPaint>
      ) : (
        <Unavailable patientId={patientId} caregiver={caregiver} allowed={allowed} what="daily check-ins" />
      )}
    </HomeCard>
  );
}

/** The newest readings, and a button per kind: a reading is entered in two taps from Home. */
export function VitalsCard({
  patientId,
  caregiver,
  allowed,
  caregiverId,
  canAdd,
}: CardProps & { caregiverId: string | null; canAdd: boolean }) {
  return (
    <HomeCard id="vitals" title="Vitals" icon={Gauge}>
      {patientId && allowed ? (
        <AfterFirstPaint waiting="Checking the latest vitals...">
          <VitalsHomeCard
            patientId={patientId}
            caregiverId={caregiverId}
            canAdd={canAdd}
            path={caregiver ? '/caregiver/vitals' : '/vitals'}
          />
        </AfterFirstPaint>
      ) : (
        <Unavailable patientId={patientId} caregiver={caregiver} allowed={allowed} what="vitals" />
      )}
    </HomeCard>
  );
}

export function FitbitCard({ patientId, caregiver, allowed }: CardProps) {
  return (
    <HomeCard id="fitbit" title="Fitbit" icon={Activity}>
      {patientId && allowed ? (
        <AfterFirstPaint waiting="Checking the Fitbit summary..." reserve="min-h-76">
          <FitbitHomeCard patientId={patientId} />
        </AfterFirstPaint>
      ) : (
        <Unavailable patientId={patientId} caregiver={caregiver} allowed={allowed} what="Fitbit summary" />
      )}
    </HomeCard>
  );
}
