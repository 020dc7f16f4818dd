import { createFileRoute } from '@tanstack/react-router';
import { BillingSuccessPage } from '../features/subscription/billing-result-page';

// Public (src/app/README.md): the checkout sends the person here once the plan is paid for or the trial
// began.
export const Route = createFileRoute('/billing/success')({ component: BillingSuccessPage });
