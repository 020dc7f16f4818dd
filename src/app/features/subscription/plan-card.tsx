import { useId } from 'react';
import { BadgeCheck, CalendarClock, Clock } from 'lucide-react';
import { BILLING_MESSAGES, planCardState, type Plan, type Subscription } from '../../../domain/billing';
import { planPriceText } from '../../../local/billing';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { billingDate } from './billing-format';
import type { Pending } from './use-billing-actions';
import { Card } from '../../ui/card';

// One plan of the Plans tab: name, description, price or 'Free', the trial, the
// 'Current Plan' badge, and the buttons the plan card rules allow (domain/billing.ts, planCardState).
// Upgrade and Switch plan name this card's plan and only open the confirmation (what changes, when, and
// the price); nothing changes before the person confirms there.

export type PlanCardActions = {
  subscribe: (plan: Plan) => void;
  /** Opens the confirmation of a move to this plan (`upgrade`: said and toasted as an upgrade). */
  choose: (plan: Plan, upgrade: boolean) => void;
  renew: (plan: Plan) => void;
  resume: () => void;
};

type Props = {
  plan: Plan;
  subscription: Subscription | null;
  pending: Pending;
  actions: PlanCardActions;
};

export function PlanCard({ plan, subscription, pending, actions }: Props) {
  const headingId = useId();
  const state = planCardState(plan, subscription);
  const busy = pending !== null;
  const busyHere = (action: NonNullable<Pending>['action']) =>
    pending?.action === action && pending.planId === plan.id;
  const button = (
    label: string,
    action: NonNullable<Pending>['action'] | null,
    onClick: () => void,
    variant: 'primary' | 'secondary' = 'primary',
  ) => (
    <Button
      variant={variant}
      className="w-full sm:w-auto"
      aria-describedby={headingId}
      disabled={busy}
      onClick={onClick}
    >
      {action && busyHere(action) ? 'Loading...' : label}
    </Button>
  );

  return (
    <Card
      as="li"
      data-testid={`plan-${plan.id}`}
      highlighted={state.isCurrent}
      className="flex min-w-0 flex-col"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="text-heading break-words">
          {plan.name}
        </h2>
        {state.isCurrent ? (
          <Badge tone="info" icon={<BadgeCheck />}>
            {BILLING_MESSAGES.currentPlan}
          </Badge>
        ) : null}
      </div>
      <p className="mt-1 text-muted">{plan.description}</p>
      <p className="mt-4 text-title">{planPriceText(plan)}</p>
      {plan.trial_period_days > 0 ? (
        <p className="mt-1 text-small font-semibold text-primary-strong">
          {BILLING_MESSAGES.trialDays(plan.trial_period_days)}
        </p>
      ) : null}
      {state.trialingUntil ? (
        <p className="mt-3 flex items-center gap-1 text-small text-text">
          <Clock aria-hidden="true" className="h-4 w-4 shrink-0" />
          {BILLING_MESSAGES.trialingUntil(billingDate(state.trialingUntil))}
        </p>
      ) : null}
      {state.startsOn ? (
        <p className="mt-3 flex items-center gap-1 text-small text-text">
          <CalendarClock aria-hidden="true" className="h-4 w-4 shrink-0" />
          {`Starts on ${billingDate(state.startsOn)}`}
        </p>
      ) : null}
      <div className="mt-auto flex flex-col gap-2 pt-4 sm:flex-row sm:flex-wrap">
        {state.showUpgrade ? button('Upgrade', 'upgrade', () => actions.choose(plan, true)) : null}
        {state.showSwitch
          ? button('Switch plan', 'change', () => actions.choose(plan, false), 'secondary')
          : null}
        {state.showResume ? button('Resume Plan', 'resume', actions.resume, 'secondary') : null}
        {state.showRenew ? button('Renew', 'renew', () => actions.renew(plan)) : null}
        {state.showSubscribe ? button('Subscribe', 'subscribe', () => actions.subscribe(plan)) : null}
      </div>
    </Card>
  );
}
