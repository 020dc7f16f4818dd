import { useEffect, useState } from 'react';
import { CARE_MESSAGES } from '../../../domain/caregivers';
import { inviteInfo } from '../../../local/care-requests';
import { errorMessages, statusOf } from '../../../local/http-errors';
import { Button } from '../../ui/button';
import { PermissionSummary } from '../../ui/permission-summary';
import { DeadLink, PublicFrame } from './public-frame';
import { InviteRegisterForm } from './invite-register-form';

// /invite/register/:token (public): a person a patient invited by e-mail sees who invited
// them, the address the invitation went to and what they will be allowed to do, and creates a caregiver
// account linked to that patient. A dead link (wrong, expired, used) says so and offers sign-in.

type Info = Awaited<ReturnType<typeof inviteInfo>>;
type State =
  | { kind: 'loading' }
  | { kind: 'ready'; info: Info }
  | { kind: 'invalid' }
  | { kind: 'failed'; message: string };

/** A 4xx answer means the link itself is no good; anything else (offline, 5xx) may work on a retry. */
export function isDeadLink(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && status >= 400 && status < 500 && status !== 429;
}

export function InviteRegisterPage({ token }: { token: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    inviteInfo(token)
      .then((info) => live && setState({ kind: 'ready', info }))
      .catch((error: unknown) => {
        if (!live) return;
        setState(
          isDeadLink(error)
            ? { kind: 'invalid' }
            : { kind: 'failed', message: errorMessages(error).join(' ') },
        );
      });
    return () => {
      live = false;
    };
  }, [token, attempt]);

  return (
    <PublicFrame title="Join Kincare as a caregiver">
      {state.kind === 'loading' ? <p role="status">Checking your invitation...</p> : null}
      {state.kind === 'invalid' ? (
        <DeadLink message={CARE_MESSAGES.inviteInvalid} linkLabel="Go to sign in" />
      ) : null}
      {state.kind === 'failed' ? (
        <>
          <p role="alert" className="text-danger-strong">
            {state.message}
          </p>
          <Button className="mt-4" onClick={() => setAttempt((value) => value + 1)}>
            Try again
          </Button>
        </>
      ) : null}
      {state.kind === 'ready' ? (
        <>
          <p className="mb-4" data-testid="invite-from">
            <strong>{state.info.patient_name}</strong> invited you to help with their health records on
            Kincare.
          </p>
          <div className="mb-6 rounded-control bg-surface-muted p-4">
            <h2 className="mb-2 text-heading">What you will be able to do</h2>
            <PermissionSummary
              permissions={state.info.permissions}
              empty="Nothing yet: the patient can give you access later."
            />
          </div>
          <InviteRegisterForm
            token={token}
            email={state.info.email}
            onDeadLink={() => setState({ kind: 'invalid' })}
          />
        </>
      ) : null}
    </PublicFrame>
  );
}
