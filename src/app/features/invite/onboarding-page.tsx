import { useEffect, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import toast from 'react-hot-toast';
import type { Profile } from '../../../domain/auth';
import { CARE_MESSAGES, type AssociatedPatientEntry } from '../../../domain/caregivers';
import { completeOnboarding, refreshCareNow } from '../../../local/care-requests';
import { hasUserDb, userDb } from '../../../local/db';
import { errorMessages } from '../../../local/http-errors';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { PermissionSummary } from '../../ui/permission-summary';
import { homeFor } from '../../shell/guards';
import { DeadLink, PublicFrame, primaryLinkClass } from './public-frame';
import { isDeadLink } from './invite-register-page';

// /onboarding/:token (public): the single-use link from invite registration signs the new
// caregiver in (as the sign-in form does, asking first about an earlier user's unsent changes), welcomes
// them with what they may now do, and continues home through the beta policy a first sign-in needs.

type State =
  | { kind: 'working' }
  | { kind: 'welcome'; profile: Profile; patients: AssociatedPatientEntry[] }
  | { kind: 'declined' }
  | { kind: 'invalid' }
  | { kind: 'failed'; message: string };

type Confirm = (count: number) => Promise<boolean>;

// The token works once: a second effect run (React's StrictMode in development) must not spend it again.
const attempts = new Map<string, Promise<Profile | null>>();
function onboardOnce(token: string, confirm: Confirm): Promise<Profile | null> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = completeOnboarding(token, confirm);
    attempts.set(token, attempt);
  }
  return attempt;
}

async function linkedPatients(): Promise<AssociatedPatientEntry[]> {
  await refreshCareNow();
  return hasUserDb() ? userDb().associatedPatients.toArray() : [];
}

export function OnboardingPage({ token }: { token: string }) {
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ kind: 'working' });
  const [othersUnsent, setOthersUnsent] = useState<{ count: number; answer: (ok: boolean) => void } | null>(
    null,
  );
  useEffect(() => {
    let live = true;
    const confirm: Confirm = (count) =>
      new Promise<boolean>((resolve) =>
        setOthersUnsent({
          count,
          answer: (ok) => {
            setOthersUnsent(null);
            resolve(ok);
          },
        }),
      );
    onboardOnce(token, confirm)
      .then(async (profile) => {
        if (!profile) {
          if (live) setState({ kind: 'declined' });
          return;
        }
        const patients = await linkedPatients().catch(() => []);
        if (live) setState({ kind: 'welcome', profile, patients });
      })
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
  }, [token]);

  const carryOn = (profile: Profile) => {
    toast.success('Logged in successfully');
    void navigate({
      to: profile.beta_policy_accepted_at ? homeFor(profile.role) : '/beta-user-policy',
      replace: true,
    });
  };

  return (
    <PublicFrame title={state.kind === 'welcome' ? `Welcome, ${state.profile.name}` : 'Signing you in'}>
      {state.kind === 'working' ? <p role="status">Signing you in...</p> : null}
      {state.kind === 'invalid' ? (
        <DeadLink message={CARE_MESSAGES.onboardingInvalid} linkLabel="Sign in" />
      ) : null}
      {state.kind === 'failed' ? <DeadLink message={state.message} linkLabel="Sign in" /> : null}
      {state.kind === 'declined' ? (
        <>
          <p role="status">
            Nothing was changed on this device. Sign in with your e-mail and password when you are ready.
          </p>
          <Link to="/login" className={`mt-4 ${primaryLinkClass}`}>
            Sign in
          </Link>
        </>
      ) : null}
      {state.kind === 'welcome' ? (
        <Welcome patients={state.patients} onContinue={() => carryOn(state.profile)} />
      ) : null}
      <ConfirmDialog
        open={othersUnsent !== null}
        title="Unsent changes on this device"
        message={`This device holds ${othersUnsent?.count === 1 ? '1 unsent change' : `${othersUnsent?.count ?? 0} unsent changes`} of the person who used Kincare here before. Signing in as you will delete ${othersUnsent?.count === 1 ? 'it' : 'them'}.`}
        confirmLabel={`Delete ${othersUnsent?.count === 1 ? 'it' : 'them'} and continue`}
        onConfirm={() => othersUnsent?.answer(true)}
        onClose={() => othersUnsent?.answer(false)}
      />
    </PublicFrame>
  );
}

function Welcome({
  patients,
  onContinue,
}: {
  patients: readonly AssociatedPatientEntry[];
  onContinue: () => void;
}) {
  return (
    <div>
      <p className="mb-4">{CARE_MESSAGES.inviteRegistered}</p>
      {patients.length === 0 ? <p className="mb-4">You can now help the patient who invited you.</p> : null}
      {patients.map((patient) => (
        <div key={patient.patient_id} className="mb-4 rounded-control bg-surface-muted p-4">
          <h2 className="mb-2 text-heading">You can now help {patient.name}</h2>
          <PermissionSummary
            permissions={patient.permissions}
            empty="They have not given you access to any records yet."
          />
        </div>
      ))}
      <Button className="w-full" onClick={onContinue}>
        Continue
      </Button>
    </div>
  );
}
