import { createFileRoute } from '@tanstack/react-router';
import { PermissionRequestsPage } from '../../../features/permission-requests/permission-requests-page';

export const Route = createFileRoute('/_app/_patient/permission-request')({
  component: PermissionRequestsPage,
});
