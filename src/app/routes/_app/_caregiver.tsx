import { createFileRoute, Outlet } from '@tanstack/react-router';
import { requireCaregiverPermission } from '../../shell/guards';

// Caregiver routes: the role, and for the record screens the matching Read permission (src/app/README.md).
export const Route = createFileRoute('/_app/_caregiver')({
  beforeLoad: ({ location }) => requireCaregiverPermission(location.pathname),
  component: Outlet,
});
