import { createFileRoute } from '@tanstack/react-router';
import { BetaPolicyPage } from '../../features/legal/beta-policy-page';

export const Route = createFileRoute('/_app/beta-user-policy')({ component: BetaPolicyPage });
