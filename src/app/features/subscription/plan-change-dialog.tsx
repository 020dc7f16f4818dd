import { planChange, planChangeLines, type Plan, type Subscription } from '../../../domain/billing';
import { planPriceText } from '../../../local/billing';
import { Button } from '../../ui/button';
import { DialogFrame } from '../../ui/confirm-dialog';
import { billingDate } from './billing-format';

// The confirmation of a move to the plan the person chose on its card: what changes, when (now, at the
// end of the period, or after a checkout) and at what price, before anything is asked of the server.

export type PlanChoice = { plan: Plan; upgrade: boolean };

type Props = {
  choice: PlanChoice | null;
  subscription: Subscription | null;
  busy: boolean;
  onConfirm: (choice: PlanChoice) => void;
  onClose: () => void;
};

export function PlanChangeDialog({ choice, subscription, busy, onConfirm, onClose }: Props) {
  const kind = choice ? planChange(subscription, choice.plan) : 'same';
  const lines = choice
    ? planChangeLines(kind, choice.plan, subscription, {
        priceText: planPriceText(choice.plan),
        date: billingDate,
      })
    : [];
  const [first = '', ...rest] = lines;
  const title = choice ? `${choice.upgrade ? 'Upgrade' : 'Switch'} to ${choice.plan.name}` : '';
  return (
    <DialogFrame
      open={choice !== null}
      title={title}
      message={first}
      onClose={onClose}
      actions={
        <>
          {/* Focus starts on the choice that changes nothing. */}
          <Button variant="secondary" onClick={onClose} autoFocus>
            Keep my plan
          </Button>
          <Button disabled={busy} onClick={() => choice && onConfirm(choice)}>
            {busy ? 'Loading...' : kind === 'checkout' ? 'Continue to checkout' : 'Confirm change'}
          </Button>
        </>
      }
    >
      {choice ? (
        <>
          {rest.map((line) => (
            <p key={line} className="mt-2 text-muted">
              {line}
            </p>
          ))}
          <p className="mt-3 font-semibold" data-testid="change-price">
            {`Price: ${planPriceText(choice.plan)}`}
          </p>
        </>
      ) : null}
    </DialogFrame>
  );
}
