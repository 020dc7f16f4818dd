import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { BILLING_MESSAGES, type Plan } from '../../../domain/billing';
import { fetchPlans, planPriceText } from '../../../local/billing';
import { SignUpForm } from './sign-up-form';
import { Card } from '../../ui/card';

// /signup/:plan (public: the corporate sign-up). The sign-up form with the link's plan
// named; the account remembers the plan, and the first sign-in offers it already chosen. A plan that is not
// offered is said plainly, and the person signs up without one (they choose at their first sign-in).

type PlanState =
  | { kind: 'loading' }
  | { kind: 'found'; plan: Plan }
  | { kind: 'unknown' }
  /** The plans could not be fetched (offline, server down): the id goes to the server, which checks it. */
  | { kind: 'unchecked' };

export function PlanSignupPage({ planId }: { planId: string }) {
  const [state, setState] = useState<PlanState>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    fetchPlans()
      .then((plans) => {
        if (!live) return;
        const plan = plans.find((candidate) => candidate.id === planId);
        setState(plan ? { kind: 'found', plan } : { kind: 'unknown' });
      })
      .catch(() => live && setState({ kind: 'unchecked' }));
    return () => {
      live = false;
    };
  }, [planId]);

  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-4 py-10">
      <Card as="div" padding="frame" className="w-full max-w-md min-w-0">
        <h1 className="text-title">Sign up for Kincare</h1>
        <div className="mt-3 mb-6" aria-live="polite">
          {state.kind === 'loading' ? <p className="text-muted">Checking your plan...</p> : null}
          {state.kind === 'found' ? (
            <p className="rounded-control bg-primary-soft p-3 text-primary-strong" data-testid="chosen-plan">
              Your plan: <strong>{state.plan.name}</strong> ({planPriceText(state.plan)}
              {state.plan.trial_period_days > 0
                ? `, ${BILLING_MESSAGES.trialDays(state.plan.trial_period_days)}`
                : ''}
              )
            </p>
          ) : null}
          {state.kind === 'unknown' ? (
            <p role="alert" className="text-danger-strong">
              {BILLING_MESSAGES.planUnknown} You can sign up now and choose a plan when you first sign in.
            </p>
          ) : null}
        </div>
        {state.kind === 'loading' ? null : (
          <SignUpForm
            plan={state.kind === 'found' ? state.plan.id : state.kind === 'unchecked' ? planId : undefined}
          />
        )}
        <p className="mt-6 text-center text-small">
          Already have an account?{' '}
          <Link to="/login" className="font-semibold text-primary-strong underline">
            Sign in
          </Link>
        </p>
      </Card>
    </main>
  );
}
