import { createFileRoute } from '@tanstack/react-router';
import { BillingCancelPage } from '../features/subscription/billing-result-page';

// Public (src/app/README.md): the checkout sends the person here when they go back without paying.
export const Route = createFileRoute('/billing/cancel')({ component: BillingCancelPage });
