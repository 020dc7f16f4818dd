import { PageTitle } from '../../ui/page';
import { useAssociatedPatients, useSelectedPatientId } from '../../shell/use-selected-patient';
import { MyPermissionRequests } from './my-permission-requests';
import { PermissionRequestForm } from './permission-request-form';

/** /caregiver/permission-request: 'Request Additional Permissions'. */
export function PermissionRequestPage() {
  const selected = useSelectedPatientId();
  const patients = useAssociatedPatients();
  const patient = patients?.find((entry) => entry.patient_id === selected) ?? null;
  return (
    <>
      <PageTitle
        description={
          patient
            ? `Ask ${patient.name} for more access. What they already allow is ticked.`
            : 'Ask a patient for more access to their records.'
        }
      >
        Request Additional Permissions
      </PageTitle>
      {/* A new patient starts a new form: nothing ticked for one is asked of another. */}
      <PermissionRequestForm key={patient?.patient_id ?? 'none'} patient={patient} />
      {patient ? <MyPermissionRequests patientId={patient.patient_id} /> : null}
    </>
  );
}
