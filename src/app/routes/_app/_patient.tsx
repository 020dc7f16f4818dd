import { createFileRoute, Outlet } from '@tanstack/react-router';
import { requireRole } from '../../shell/guards';

export const Route = createFileRoute('/_app/_patient')({
  beforeLoad: () => {
    requireRole('Patient');
  },
  component: Outlet,
});
