import { useState } from 'react';
import { CloudOff, Package } from 'lucide-react';
import { BILLING_MESSAGES } from '../../../domain/billing';
import { formatDateTime } from '../../../domain/clock';
import { Tabs } from '../../ui/tabs';
import { EmptyState } from '../../ui/page';
import { useOnline } from '../../ui/use-online';
import { useSession } from '../../shell/use-session';
import { ManageTab } from './manage-tab';
import { PlanCard } from './plan-card';
import { PlanChangeDialog, type PlanChoice } from './plan-change-dialog';
import { useBillingActions } from './use-billing-actions';
import { useBillingView, useRefreshBilling } from './use-billing';

// /subscription: the 'Plans' tab (title 'Subscription Plans') with a card per plan, and
// the 'Manage Subscription' tab. Read from the device (the server's last answer), so it shows offline;
// every change needs a connection and says so.

type Mode = 'plans' | 'manage';
const MODES: Mode[] = ['plans', 'manage'];
const TAB_LABELS: Record<Mode, string> = { plans: 'Plans', manage: 'Manage Subscription' };
const TITLES: Record<Mode, string> = { plans: 'Subscription Plans', manage: 'Manage Subscription' };

export function SubscriptionPage() {
  useRefreshBilling();
  const online = useOnline();
  const userId = useSession()?.userId ?? null;
  const { plans, subscription, savedAt } = useBillingView();
  const actions = useBillingActions(subscription, userId);
  const [mode, setMode] = useState<Mode>('plans');
  const [choice, setChoice] = useState<PlanChoice | null>(null);
  const cardActions = {
    subscribe: actions.subscribe,
    renew: actions.renew,
    resume: () => void actions.resume(),
    // Offline the confirmation would lead nowhere: it says at once that a change needs a connection.
    choose: (plan: PlanChoice['plan'], upgrade: boolean) => {
      if (actions.canAsk()) setChoice({ plan, upgrade });
    },
  };

  const known = subscription !== undefined;
  const offlineNote = online ? null : (
    <p
      role="status"
      className="mb-4 flex items-start gap-2 rounded-control bg-warning-soft p-3 text-small text-warning-strong ring-1 ring-warning/30 ring-inset"
    >
      <CloudOff aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
      <span>
        {BILLING_MESSAGES.needsConnection}
        {savedAt ? ` Saved ${formatDateTime(savedAt)}.` : ''}
      </span>
    </p>
  );

  const planList =
    plans === undefined || !known ? (
      <p className="text-muted" role="status">
        {online ? 'Loading plans...' : 'The plans show here once this device has been online.'}
      </p>
    ) : plans.length === 0 ? (
      <EmptyState icon={<Package />} title="No plans are offered at the moment." />
    ) : (
      <ul aria-label="Plans" className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {plans.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            subscription={subscription}
            pending={actions.pending}
            actions={cardActions}
          />
        ))}
      </ul>
    );

  const manage = !known ? (
    <p className="text-muted" role="status">
      {online
        ? 'Loading your subscription...'
        : 'Your subscription shows here once this device has been online.'}
    </p>
  ) : (
    <ManageTab
      subscription={subscription}
      plans={plans ?? []}
      pending={actions.pending}
      onCancel={actions.cancel}
      onResume={() => void actions.resume()}
      onUpdateCard={() => void actions.updateCard()}
      onShowPlans={() => setMode('plans')}
    />
  );

  return (
    <>
      <div className="mb-6">
        <h1 className="text-title text-text">{TITLES[mode]}</h1>
        <p className="mt-1 text-muted">Your plan, and what each plan includes.</p>
      </div>
      {offlineNote}
      <Tabs
        labels={MODES.map((item) => TAB_LABELS[item])}
        selected={MODES.indexOf(mode)}
        onSelect={(index) => setMode(MODES[index] ?? 'plans')}
      >
        {mode === 'plans' ? planList : manage}
      </Tabs>
      <PlanChangeDialog
        choice={choice}
        subscription={subscription ?? null}
        busy={actions.pending?.action === 'change' || actions.pending?.action === 'upgrade'}
        onClose={() => setChoice(null)}
        onConfirm={({ plan, upgrade }) => void actions.change(plan, upgrade).then(() => setChoice(null))}
      />
    </>
  );
}
