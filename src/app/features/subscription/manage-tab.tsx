import { useState, type ReactNode } from 'react';
import { CalendarClock, Wallet } from 'lucide-react';
import {
  BILLING_MESSAGES,
  cancelLines,
  cardText,
  endingText,
  isLive,
  type Plan,
  type Subscription,
} from '../../../domain/billing';
import { planPriceText } from '../../../local/billing';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { DialogFrame } from '../../ui/confirm-dialog';
import { EmptyState } from '../../ui/page';
import { billingDate, renewalText, statusLabel, statusTone } from './billing-format';
import { Card } from '../../ui/card';
import type { Pending } from './use-billing-actions';

// The Manage Subscription tab: Plan, Amount, Status, Start Date, Renewal Date, the card on file with
// 'Update card' (the provider's page), 'Cancel Subscription' while the subscription runs (a trial too),
// behind a confirmation that says what happens and when, and, once set to end, when it ends with
// 'Resume Plan' to undo it.

type Props = {
  subscription: Subscription | null;
  plans: Plan[];
  pending: Pending;
  /** Answers whether the cancel went through (the dialog closes either way; a failure is toasted). */
  onCancel: () => Promise<boolean>;
  onResume: () => void;
  onUpdateCard: () => void;
  onShowPlans: () => void;
};

export function ManageTab({
  subscription,
  plans,
  pending,
  onCancel,
  onResume,
  onUpdateCard,
  onShowPlans,
}: Props) {
  const [confirming, setConfirming] = useState(false);
  if (!subscription)
    return (
      <EmptyState
        icon={<Wallet />}
        title={BILLING_MESSAGES.noSubscription}
        action={<Button onClick={onShowPlans}>See the plans</Button>}
      />
    );
  // The subscription carries no currency: its plan's, when the device has the plans.
  const currency = plans.find((plan) => plan.id === subscription.plan_id)?.currency;
  const cancelling = pending?.action === 'cancel';
  const live = isLive(subscription);
  const paid = subscription.price > 0;
  const nextPlanName = plans.find((plan) => plan.id === subscription.next_plan_id)?.name ?? null;
  const ending = endingText({ ...subscription, next_plan_name: nextPlanName }, billingDate);
  const [firstLine = '', ...moreLines] = cancelLines(subscription, billingDate);
  const rows: [string, ReactNode][] = [
    ['Plan', subscription.plan_name],
    ['Amount', planPriceText({ ...subscription, currency })],
    [
      'Status',
      <Badge key="status" tone={statusTone(subscription.subscription_status)}>
        {statusLabel(subscription.subscription_status)}
      </Badge>,
    ],
    ['Start Date', billingDate(subscription.start_date)],
    ['Renewal Date', renewalText(subscription)],
    ...(paid && live
      ? [['Card', subscription.card ? cardText(subscription.card) : 'No card on file'] as [string, ReactNode]]
      : []),
  ];
  return (
    <Card aria-label="Your subscription">
      <dl className="divide-y divide-border">
        {rows.map(([term, value]) => (
          <div key={term} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3">
            <dt className="text-small font-medium text-muted">{term}</dt>
            <dd className="min-w-0 text-right font-semibold break-words">{value}</dd>
          </div>
        ))}
      </dl>
      {ending ? (
        <p className="mt-4 flex items-start gap-2 text-text" data-testid="subscription-ending">
          <CalendarClock aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          <span>{ending}</span>
        </p>
      ) : null}
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {paid && live ? (
          <Button
            variant="secondary"
            className="w-full sm:w-auto"
            disabled={pending !== null}
            onClick={onUpdateCard}
          >
            {pending?.action === 'card' ? 'Loading...' : 'Update card'}
          </Button>
        ) : null}
        {live && subscription.cancel_at_period_end ? (
          <Button className="w-full sm:w-auto" disabled={pending !== null} onClick={onResume}>
            {pending?.action === 'resume' ? 'Loading...' : 'Resume Plan'}
          </Button>
        ) : null}
        {live && !subscription.cancel_at_period_end ? (
          <Button variant="danger" className="w-full sm:w-auto" onClick={() => setConfirming(true)}>
            Cancel Subscription
          </Button>
        ) : null}
      </div>
      <DialogFrame
        open={confirming}
        title="Cancel Subscription"
        message={firstLine}
        onClose={() => setConfirming(false)}
        actions={
          <>
            {/* Focus starts on the choice that changes nothing. */}
            <Button variant="secondary" onClick={() => setConfirming(false)} autoFocus>
              Keep Subscription
            </Button>
            <Button
              variant="danger"
              disabled={cancelling}
              onClick={() => void onCancel().then(() => setConfirming(false))}
            >
              {cancelling ? 'Loading...' : 'Yes, cancel it'}
            </Button>
          </>
        }
      >
        {moreLines.map((line) => (
          <p key={line} className="mt-2 text-muted">
            {line}
          </p>
        ))}
      </DialogFrame>
    </Card>
  );
}
