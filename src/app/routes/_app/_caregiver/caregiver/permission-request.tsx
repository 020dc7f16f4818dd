import { createFileRoute } from '@tanstack/react-router';
import { PermissionRequestPage } from '../../../../features/caregiver-permissions/permission-request-page';

export const Route = createFileRoute('/_app/_caregiver/caregiver/permission-request')({
  component: PermissionRequestPage,
});
