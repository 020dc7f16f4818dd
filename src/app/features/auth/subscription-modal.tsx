import { useEffect, useState, type FormEvent } from 'react';
import { Description } from '@headlessui/react';
import { BILLING_MESSAGES, type Plan, type SubscriptionRequiredBody } from '../../../domain/billing';
import { DEFAULT_FAILURE_TEXT } from '../../../domain/error-texts';
import {
  billingFailureText,
  fetchPlans,
  goToCheckout,
  planPriceText,
  subscribeBeforeSignIn,
} from '../../../local/billing';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { Sheet } from '../../ui/sheet';

// The subscription modal opened on login (a 403 with code SUBSCRIPTION_REQUIRED
// opens it for the returned userId). Loaded only then: the sign-in page's first load carries none of it.
// The person chooses a plan (the one of a corporate sign-up is chosen already); a free plan starts at once
// and the sign-in goes on with what they typed, a paid one goes to the checkout first.

type Props = {
  required: SubscriptionRequiredBody;
  /** The free plan started: sign in again with the credentials just typed. */
  onSubscribed: () => Promise<void>;
  onClose: () => void;
};

type PlansState =
  { kind: 'loading' } | { kind: 'ready'; plans: Plan[] } | { kind: 'failed'; message: string };

export function SubscriptionModal({ required, onSubscribed, onClose }: Props) {
  const [state, setState] = useState<PlansState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [chosen, setChosen] = useState<string | null>(required.planId);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    fetchPlans()
      .then((plans) => {
        if (!live) return;
        setState({ kind: 'ready', plans });
        // A plan named by the sign-up link stays chosen; otherwise the first (the free one, when offered).
        setChosen((current) =>
          current && plans.some((plan) => plan.id === current) ? current : (plans[0]?.id ?? null),
        );
      })
      .catch((error: unknown) => {
        if (live)
          setState({ kind: 'failed', message: billingFailureText(error, BILLING_MESSAGES.fetchPlansFailed) });
      });
    return () => {
      live = false;
    };
  }, [attempt]);

  const plans = state.kind === 'ready' ? state.plans : [];
  const plan = plans.find((candidate) => candidate.id === chosen) ?? null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The sign-in form is this modal's parent in React's tree: its submit must not see this one.
    event.stopPropagation();
    if (!plan || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const answer = await subscribeBeforeSignIn({
        planId: plan.id,
        userId: required.userId,
        subscribeToken: required.subscribeToken,
      });
      if (answer.checkout_url) {
        goToCheckout(answer.checkout_url);
        return; // the page is leaving: stay busy
      }
      if (answer.subscription) await onSubscribed();
      // A missing checkout address is only logged, never shown.
      else console.error('The server answered no checkout address and no subscription.');
      setBusy(false);
    } catch (error) {
      setFailure(billingFailureText(error, DEFAULT_FAILURE_TEXT));
      setBusy(false);
    }
  };

  return (
    <Sheet open onClose={onClose} title="Choose a plan" data-testid="subscription-modal">
      <Description className="mt-2 text-muted">{BILLING_MESSAGES.subscriptionRequired}</Description>
      {state.kind === 'loading' ? (
        <p role="status" className="mt-4">
          Loading plans...
        </p>
      ) : null}
      {state.kind === 'failed' ? (
        <div className="mt-4">
          <FormAlert message={state.message} />
          <Button variant="secondary" onClick={() => setAttempt((value) => value + 1)}>
            Try again
          </Button>
        </div>
      ) : null}
      {state.kind === 'ready' ? (
        <form onSubmit={(event) => void submit(event)} aria-label="Choose a plan" className="mt-4">
          <fieldset>
            <legend className="sr-only">Plans</legend>
            <div className="flex flex-col gap-2">
              {plans.map((option) => (
                <label
                  key={option.id}
                  className={`flex min-h-11 cursor-pointer items-start gap-3 rounded-control p-3 ring-1 ${
                    option.id === chosen ? 'bg-primary-soft ring-2 ring-primary' : 'ring-border'
                  }`}
                >
                  <input
                    type="radio"
                    name="plan"
                    value={option.id}
                    checked={option.id === chosen}
                    onChange={() => setChosen(option.id)}
                    className="mt-1 h-5 w-5 shrink-0 accent-primary"
                    aria-labelledby={`plan-${option.id}-name`}
                    aria-describedby={`plan-${option.id}-details`}
                  />
                  <span className="min-w-0">
                    <span id={`plan-${option.id}-name`} className="block font-semibold">
                      {option.name}
                    </span>
                    <span id={`plan-${option.id}-details`} className="block text-small text-muted">
                      {planPriceText(option)}
                      {option.trial_period_days > 0
                        ? ` · ${BILLING_MESSAGES.trialDays(option.trial_period_days)}`
                        : ''}
                      {option.description ? ` · ${option.description}` : ''}
                    </span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <FormAlert message={failure} className="mt-4" />
          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-end *:min-h-11">
            <Button variant="secondary" onClick={onClose}>
              Not now
            </Button>
            <Button type="submit" disabled={!plan || busy}>
              {busy ? 'Loading...' : plan && plan.price > 0 ? 'Continue to checkout' : 'Continue'}
            </Button>
          </div>
        </form>
      ) : null}
    </Sheet>
  );
}
