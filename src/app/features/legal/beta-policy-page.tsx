import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import {
  BETA_POLICY_ACKNOWLEDGEMENTS,
  BETA_POLICY_MESSAGES,
  type BetaAcknowledgementKey,
} from '../../../domain/auth';
import { formatDate } from '../../../domain/dates';
import { acceptBetaPolicy } from '../../../local/account';
import { hasUserDb, userDb } from '../../../local/db';
import { syncNow } from '../../../local/sync-trigger';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { Card, PageTitle } from '../../ui/page';
import { homeFor } from '../../shell/guards';
import { useProfile } from '../../shell/use-session';

const EFFECTIVE = 'June 30, 2025';

/**
 * The beta-user disclaimer with its four acknowledgements, stored per user (src/domain/README.md). Until it
 * is accepted it is the only signed-in screen (shell/policy-gate.tsx); afterwards Profile links to it.
 */
export function BetaPolicyPage() {
  const profile = useProfile();
  const navigate = useNavigate();
  const [ticked, setTicked] = useState<Record<BetaAcknowledgementKey, boolean>>({
    notHipaa: false,
    notForMedicalDecisions: false,
    dataMayBeDeleted: false,
    agreeToPolicy: false,
  });
  const { busy, failure, setFailure, run } = useSubmit();
  const accepted = profile?.beta_policy_accepted_at;
  // Changes made before the policy was accepted (offline, or by an older app) wait on this device; they
  // are the person's own work and go to the server once the policy is accepted (src/local/README.md).
  const waiting = useLiveQuery(
    async () => (hasUserDb() ? userDb().outbox.where('status').equals('pending').count() : 0),
    [],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!Object.values(ticked).every(Boolean)) {
      setFailure(BETA_POLICY_MESSAGES.allRequired);
      return;
    }
    await run(async () => {
      const updated = await acceptBetaPolicy({
        notHipaa: true,
        notForMedicalDecisions: true,
        dataMayBeDeleted: true,
        agreeToPolicy: true,
      });
      void syncNow(); // the changes that waited for the policy go now
      await navigate({ to: homeFor(updated.role), replace: true });
    });
  };

  return (
    <>
      <PageTitle description={`Effective ${EFFECTIVE}`}>Beta User Policy</PageTitle>
      <Card className="max-w-3xl space-y-3 text-slate-800">
        <p>Thank you for trying Kincare during its beta. Please read this before you go on.</p>
        <ul className="list-disc space-y-2 pl-6">
          <li>
            During the beta, Kincare is <strong>not HIPAA compliant</strong>. Do not store information you are
            not comfortable keeping in a beta service.
          </li>
          <li>
            Kincare is <strong>not for medical decisions</strong>. It keeps your records; your doctor decides
            about your care.
          </li>
          <li>
            Beta data <strong>may be deleted or migrated</strong> as the service changes.
          </li>
        </ul>
        <p>
          Please also read our{' '}
          <Link to="/terms-of-use" className="text-primary-strong underline">
            Terms of Use
          </Link>{' '}
          and{' '}
          <Link to="/privacy-policy" className="text-primary-strong underline">
            Privacy Policy
          </Link>
          .
        </p>
        {accepted ? (
          <p role="status" className="rounded bg-brand-50 p-3 text-brand-900">
            You accepted this policy on {formatDate(accepted)}.
          </p>
        ) : (
          <>
            {waiting ? (
              <p
                role="status"
                className="rounded bg-brand-50 p-3 text-brand-900"
                data-testid="changes-waiting-for-policy"
              >
                {waiting === 1
                  ? '1 change you made on this device is kept here. It is sent as soon as you accept this policy.'
                  : `${waiting} changes you made on this device are kept here. They are sent as soon as you accept this policy.`}
              </p>
            ) : null}
            <form
              onSubmit={(event) => void submit(event)}
              noValidate
              aria-label="Beta policy acknowledgements"
            >
              <fieldset className="space-y-3">
                <legend className="mb-2 font-semibold">Please confirm each point</legend>
                {BETA_POLICY_ACKNOWLEDGEMENTS.map((item) => (
                  <label key={item.key} className="flex min-h-11 cursor-pointer items-start gap-3 py-1">
                    {/* shrink-0: beside a long statement a flex item would shrink, and the boxes differ. */}
                    <input
                      type="checkbox"
                      className="mt-0.5 h-5 w-5 shrink-0 accent-primary"
                      checked={ticked[item.key]}
                      onChange={(event) =>
                        setTicked((previous) => ({ ...previous, [item.key]: event.target.checked }))
                      }
                    />
                    <span>{item.label}</span>
                  </label>
                ))}
              </fieldset>
              <FormAlert message={failure} className="mt-4" />
              <Button type="submit" className="mt-4" disabled={busy}>
                I agree
              </Button>
            </form>
          </>
        )}
      </Card>
    </>
  );
}
