import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../../screens/home/dashboard-page';

export const Route = createFileRoute('/_app/_patient/dashboard')({ component: DashboardPage });
