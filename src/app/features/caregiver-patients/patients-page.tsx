import { PageTitle } from '../../ui/page';
import { useAssociatedPatients } from '../../shell/use-selected-patient';
import { MyPatients } from './my-patients';
import { ReceivedRequests } from './received-requests';
import { useApprovedLinks, useReceivedRequests } from './use-care-lists';

/** /caregiver/patients: the requests waiting for an answer, and the patients this caregiver looks after. */
export function PatientsPage() {
  const requests = useReceivedRequests();
  const patients = useAssociatedPatients();
  const links = useApprovedLinks();
  return (
    <>
      <PageTitle description="The people who asked you to help, and what each lets you see and do.">
        Patients
      </PageTitle>
      <ReceivedRequests requests={requests} />
      <MyPatients patients={patients} links={links} />
    </>
  );
}
