import { useEffect, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { finishFitbitConnection } from '../../../local/fitbit';
import { toastLater } from '../../ui/toast-later';
import { Card, PageTitle } from '../../ui/page';
import { useSession } from '../../shell/use-session';

// /fitbit/callback: Fitbit sends the patient back here with ?code=. The page says
// 'Connecting to Fitbit...', posts the code with the patient's user id, and on success shows the server's
// message as a toast and goes to /dashboard. A failure is said on the page with a way back.

export type FitbitCallbackSearch = { code?: string; state?: string; error?: string };

type Finish = Awaited<ReturnType<typeof finishFitbitConnection>>;

// A code is good once: the page mounted twice (React's strict mode, a re-render) must not post it twice.
const posted = new Map<string, Promise<Finish>>();
function postOnce(code: string, userId: string, state: string | undefined): Promise<Finish> {
  let sending = posted.get(code);
  if (!sending) {
    sending = finishFitbitConnection({ code, userId, ...(state ? { state } : {}) });
    posted.set(code, sending);
  }
  return sending;
}

const backLinkClass =
  'mt-4 inline-flex min-h-11 items-center justify-center rounded-control bg-primary px-4 py-2 font-semibold text-primary-on hover:bg-primary-hover focus:outline-none focus-visible:ring-2 focus-visible:ring-focus focus-visible:ring-offset-2 focus-visible:ring-offset-surface';

export function FitbitCallbackPage({ search }: { search: FitbitCallbackSearch }) {
  const session = useSession();
  const navigate = useNavigate();
  const { code, state, error } = search;
  const [problem, setProblem] = useState<string | null>(() =>
    error
      ? 'Fitbit was not connected: access was not allowed in Fitbit.'
      : !code
        ? 'Fitbit did not send a sign-in code. Please connect Fitbit again from Home.'
        : null,
  );
  const userId = session?.userId;

  useEffect(() => {
    if (!code || error || !userId) return;
    let live = true;
    void postOnce(code, userId, state).then((result) => {
      if (!live) return;
      if (result.ok) {
        toastLater((toast) => toast.success(result.message));
        void navigate({ to: '/dashboard', replace: true });
      } else {
        setProblem(result.problem.message);
      }
    });
    return () => {
      live = false;
    };
  }, [code, state, error, userId, navigate]);

  return (
    <div className="mx-auto max-w-lg min-w-0">
      <PageTitle>Fitbit</PageTitle>
      <Card>
        {problem ? (
          <>
            <p role="alert" className="text-danger-strong">
              {problem}
            </p>
            <Link to="/dashboard" className={backLinkClass}>
              Back to Home
            </Link>
          </>
        ) : (
          <p role="status" className="text-text">
            Connecting to Fitbit...
          </p>
        )}
      </Card>
    </div>
  );
}
