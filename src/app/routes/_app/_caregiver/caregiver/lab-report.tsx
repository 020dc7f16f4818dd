import { createFileRoute } from '@tanstack/react-router';
import { LAB_REPORT_PERMISSIONS } from '../../../../../domain/lab-reports';
import { LabReportsPage } from '../../../../features/lab-reports/lab-reports-page';
import { useProfile } from '../../../../shell/use-session';
import { useSelectedPatientId } from '../../../../shell/use-selected-patient';
import { useCaregiverPermissions } from '../../../../shell/use-caregiver-permissions';

// The route itself needs ReadLabReport (the caregiver route table); the rest follows the other permissions.
export const Route = createFileRoute('/_app/_caregiver/caregiver/lab-report')({
  component: function CaregiverLabReports() {
    const profile = useProfile();
    const patientId = useSelectedPatientId();
    const held = useCaregiverPermissions();
    return (
      <LabReportsPage
        patientId={patientId}
        caregiverId={profile?.caregiver_id ?? null}
        can={{
          add: held.includes(LAB_REPORT_PERMISSIONS.add),
          edit: held.includes(LAB_REPORT_PERMISSIONS.edit),
          delete: held.includes(LAB_REPORT_PERMISSIONS.delete),
        }}
      />
    );
  },
});
