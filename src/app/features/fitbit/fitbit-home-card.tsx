import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { formatDateTime } from '../../../domain/date-display';
import { FITBIT_MESSAGES } from '../../../domain/fitbit';
import { hasUserDb, userDb } from '../../../local/db';
import {
  fitbitSignInAddress,
  readSavedFitbit,
  refreshFitbit,
  type FitbitProblem,
  type SavedFitbit,
} from '../../../local/fitbit';
import { Button } from '../../ui/button';
import { useOnline } from '../../ui/use-online';
import { useSession } from '../../shell/use-session';
import { FitbitCharts } from './fitbit-charts';
import { FitbitDisconnect } from './fitbit-disconnect';

// Home's Fitbit card: the last 30 days of steps, resting heart rate and sleep, read
// from the device (the last answer of GET /api/fitbit/data, kept in the replica) and asked again from the
// server when the card opens online. The patient connects (or reconnects) Fitbit from here; a caregiver
// sees the patient's charts read-only. Offline, the charts kept are shown with the time they are from.

/** The patient's saved answer, live; undefined while the first read runs, null when there is none. */
function useSavedFitbit(patientId: string): SavedFitbit | null | undefined {
  return useLiveQuery(async () => (hasUserDb() ? readSavedFitbit(userDb(), patientId) : null), [patientId]);
}

/** Asks the server once the card opens online (and again when the connection comes back). */
function useFitbitRefresh(patientId: string, online: boolean): FitbitProblem | null {
  const [problem, setProblem] = useState<FitbitProblem | null>(null);
  useEffect(() => {
    if (!online || !hasUserDb()) return;
    let live = true;
    void refreshFitbit(userDb(), patientId).then((result) => {
      if (live) setProblem(result.ok ? null : result.problem);
    });
    return () => {
      live = false;
    };
  }, [patientId, online]);
  return problem;
}

const asOf = (saved: SavedFitbit) =>
  formatDateTime(saved.data.fetched_at ?? new Date(saved.savedAt).toISOString());

export function FitbitHomeCard({ patientId }: { patientId: string }) {
  const session = useSession();
  const online = useOnline();
  const saved = useSavedFitbit(patientId);
  const problem = useFitbitRefresh(patientId, online);
  const patient = session?.role !== 'Caregiver';

  if (saved?.data.set_up === false) return <p className="text-muted">{FITBIT_MESSAGES.notSetUp}</p>;
  if (saved === undefined) return <p className="text-muted">Checking the Fitbit summary...</p>;
  if (saved === null) {
    if (!online)
      return (
        <p className="text-muted">
          The Fitbit summary needs a connection the first time. It will show here once you are back online.
        </p>
      );
    if (problem)
      return (
        <p role="alert" className="text-danger-strong">
          {problem.message}
        </p>
      );
    return <p className="text-muted">Checking the Fitbit summary...</p>;
  }
  const { data } = saved;
  if (!data.connected) {
    if (!patient) return <p className="text-muted">{FITBIT_MESSAGES.notConnected}</p>;
    return <ConnectFitbit reconnect={data.reconnect} online={online} />;
  }
  return (
    <div className="min-w-0" data-testid="fitbit-summary">
      <p className="mb-3 text-sm text-muted">
        Last 30 days, as of {asOf(saved)}
        {online ? '' : ' (offline: the last summary this device saved)'}.
      </p>
      {data.days.length > 0 ? (
        <FitbitCharts days={data.days} />
      ) : (
        <p className="text-muted">Fitbit has no days to show yet.</p>
      )}
      {problem && online ? <p className="mt-2 text-sm text-muted">{problem.message}</p> : null}
      {patient ? <FitbitDisconnect patientId={patientId} online={online} /> : null}
    </div>
  );
}

function ConnectFitbit({ reconnect, online }: { reconnect: boolean; online: boolean }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  async function connect() {
    setBusy(true);
    setProblem(null);
    const result = await fitbitSignInAddress();
    if (result.ok) {
      window.location.assign(result.url);
      return;
    }
    setProblem(result.problem.message);
    setBusy(false);
  }
  return (
    <div className="min-w-0">
      <p className="mb-3 text-text">
        {reconnect
          ? FITBIT_MESSAGES.ended
          : 'Connect your Fitbit to see your steps, resting heart rate and sleep of the last 30 days here.'}
      </p>
      <Button onClick={() => void connect()} disabled={busy || !online}>
        {busy ? 'Opening Fitbit...' : 'Connect Fitbit'}
      </Button>
      {!online ? <p className="mt-2 text-sm text-muted">Connecting Fitbit needs a connection.</p> : null}
      {problem ? (
        <p role="alert" className="mt-2 text-danger-strong">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
