import { useState, type ReactNode } from 'react';
import { Wallet } from 'lucide-react';
import { BILLING_MESSAGES, type Plan, type Subscription } from '../../../domain/billing';
import { planPriceText } from '../../../local/billing';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { DialogFrame } from '../../ui/confirm-dialog';
import { EmptyState } from '../../ui/page';
import { billingDate, renewalText, statusLabel, statusTone } from './billing-format';
import { Card } from '../../ui/card';

// The Manage Subscription tab: Plan, Amount, Status, Start Date, Renewal Date, and
// 'Cancel Subscription' only while the subscription is active, behind a confirmation.

type Props = {
  subscription: Subscription | null;
  plans: Plan[];
  cancelling: boolean;
  /** Answers whether the cancel went through (the dialog closes either way; a failure is toasted). */
  onCancel: () => Promise<boolean>;
  onShowPlans: () => void;
};

export function ManageTab({ subscription, plans, cancelling, onCancel, onShowPlans }: Props) {
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
      {subscription.subscription_status === 'active' ? (
        <Button variant="danger" className="mt-4 w-full sm:w-auto" onClick={() => setConfirming(true)}>
          Cancel Subscription
        </Button>
      ) : null}
      <DialogFrame
        open={confirming}
        title="Cancel Subscription"
        message={BILLING_MESSAGES.confirmCancel}
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
      />
    </Card>
  );
}
