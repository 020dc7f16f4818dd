import { createFileRoute } from '@tanstack/react-router';
import { SharedSummaryPage } from '../features/shared-summary/shared-summary-page';

// Public: whoever holds a share link opens it here, signed in or not.
export const Route = createFileRoute('/shl')({ component: SharedSummaryPage });
