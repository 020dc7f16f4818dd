import { useState } from 'react';
import toast from 'react-hot-toast';
import { UsersRound } from 'lucide-react';
import type { ApprovedRequest, AssociatedPatientEntry } from '../../../domain/caregivers';
import { deleteCareRequest } from '../../../local/care-requests';
import { errorMessages } from '../../../local/http-errors';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { EmptyState } from '../../ui/page';
import { PermissionSummary } from '../../ui/permission-summary';
import { setSelectedPatientId, useSelectedPatientId } from '../../shell/use-selected-patient';
import { Card } from '../../ui/card';

// 'My patients': the patients this caregiver is linked to, with what each allows; 'Select' makes one the
// selected patient (as the header's 'Select Patient' does), 'Stop caring' ends the link (by
// deleting the approved request; the selected patient is cleared when it was that one).

export function MyPatients(props: {
  patients: readonly AssociatedPatientEntry[] | undefined;
  links: readonly ApprovedRequest[] | undefined;
}) {
  const selected = useSelectedPatientId();
  const [ending, setEnding] = useState<AssociatedPatientEntry | null>(null);
  const [busy, setBusy] = useState(false);
  const linkOf = (patientId: string) => props.links?.find((link) => link.patient_id === patientId);

  const stopCaring = async (patient: AssociatedPatientEntry) => {
    const link = linkOf(patient.patient_id);
    if (!link) return;
    setBusy(true);
    try {
      const message = await deleteCareRequest({
        request_id: link.request_id,
        status: 'approved',
        request_type: 'approved',
      });
      if (selected === patient.patient_id) setSelectedPatientId(null);
      toast.success(message);
      setEnding(null);
    } catch (error) {
      for (const message of errorMessages(error)) toast.error(message, { id: message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="my-patients-heading">
      <h2 id="my-patients-heading" className="mb-3 text-heading text-text">
        My patients
      </h2>
      {props.patients && props.patients.length === 0 ? (
        <EmptyState icon={<UsersRound />} title="No patients yet.">
          Once you accept a patient&apos;s request, they appear here and in &lsquo;Select Patient&rsquo; at
          the top.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2" data-testid="my-patients">
          {(props.patients ?? []).map((patient) => {
            const isSelected = selected === patient.patient_id;
            const headingId = `patient-${patient.patient_id}`;
            return (
              <Card key={patient.patient_id} as="li" padding="item" className="flex min-w-0 flex-col gap-2">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 id={headingId} className="min-w-0 text-heading break-words">
                    {patient.name}
                  </h3>
                  {isSelected ? <Badge tone="success">Selected</Badge> : null}
                </div>
                <p className="text-muted break-all">{patient.email}</p>
                <div className="text-small">
                  <p className="mb-1 font-semibold">Your permissions</p>
                  <PermissionSummary permissions={patient.permissions} />
                </div>
                <div className="mt-2 flex flex-wrap gap-3">
                  <Button
                    onClick={() => setSelectedPatientId(patient.patient_id)}
                    disabled={isSelected}
                    aria-describedby={headingId}
                  >
                    {isSelected ? 'Selected' : 'Select'}
                  </Button>
                  <Button
                    variant="secondary"
                    onClick={() => setEnding(patient)}
                    disabled={!linkOf(patient.patient_id)}
                    aria-describedby={headingId}
                  >
                    Stop caring
                  </Button>
                </div>
              </Card>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={ending !== null}
        title={`Stop caring for ${ending?.name ?? 'this patient'}?`}
        message="You will no longer see their records, on this device or any other. They can invite you again later."
        confirmLabel="Stop caring"
        busy={busy}
        onConfirm={() => ending && void stopCaring(ending)}
        onClose={() => setEnding(null)}
      />
    </section>
  );
}
