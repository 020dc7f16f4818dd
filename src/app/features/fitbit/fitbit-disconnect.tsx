import { useState } from 'react';
import { userDb } from '../../../local/db';
import { disconnectFitbit } from '../../../local/fitbit';
import { Button } from '../../ui/button';
import { toastLater } from '../../ui/toast-later';

// The patient's way to stop sharing their Fitbit with Kincare: asked once more in place (no dialog
// library in Home's card), then the server forgets the tokens and the days, and so does the device.

export function FitbitDisconnect({ patientId, online }: { patientId: string; online: boolean }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function disconnect() {
    setBusy(true);
    setProblem(null);
    const result = await disconnectFitbit(userDb(), patientId);
    setBusy(false);
    setAsking(false);
    if (result.ok) toastLater((toast) => toast.success(result.message));
    else setProblem(result.problem.message);
  }

  return (
    <div className="mt-3 min-w-0">
      {asking ? (
        <div className="flex flex-wrap items-center gap-2">
          <p className="w-full text-text">
            Disconnect Fitbit? Kincare forgets your Fitbit days and stops reading them.
          </p>
          <Button variant="danger" disabled={busy || !online} onClick={() => void disconnect()}>
            {busy ? 'Disconnecting...' : 'Disconnect'}
          </Button>
          <Button variant="secondary" disabled={busy} onClick={() => setAsking(false)}>
            Keep connected
          </Button>
        </div>
      ) : (
        <Button variant="ghost" disabled={!online} onClick={() => setAsking(true)}>
          Disconnect Fitbit
        </Button>
      )}
      {problem ? (
        <p role="alert" className="mt-2 text-danger-strong">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
