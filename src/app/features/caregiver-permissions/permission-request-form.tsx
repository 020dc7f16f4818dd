import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { CARE_MESSAGES, type AssociatedPatientEntry } from '../../../domain/caregivers';
import { isPermission, type Permission } from '../../../domain/permissions';
import { requestMorePermissions } from '../../../local/care-requests';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { PermissionPicker } from '../../ui/permission-picker';
import { useSubmit } from '../../ui/use-submit';

// The form of 'Request Additional Permissions'. With no patient selected the
// boxes still tick, but the page says to select a patient first, and sending says 'Please select patient.'
// With a patient, what they already granted is shown ticked and locked, 'Save Changes' appears once
// something new is ticked, and only the new permissions are asked for.

export function PermissionRequestForm({ patient }: { patient: AssociatedPatientEntry | null }) {
  const [chosen, setChosen] = useState<Permission[]>([]);
  const [touched, setTouched] = useState(false);
  const { busy, failure, setFailure, run } = useSubmit();
  const granted = (patient?.permissions ?? []).filter(isPermission);
  const fresh = chosen.filter((permission) => !granted.includes(permission));

  const change = (next: Permission[]) => {
    setChosen(next);
    setTouched(true);
    setFailure(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!patient) {
      setFailure(CARE_MESSAGES.selectPatient);
      return;
    }
    await run(async () => {
      await requestMorePermissions({
        patient_id: patient.patient_id,
        requested_permissions: fresh,
        permission_id: patient.permission_id,
      });
      toast.success(CARE_MESSAGES.permissionRequestSent);
      setChosen([]);
      setTouched(false);
    });
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label="Request Additional Permissions"
      className="min-w-0"
    >
      {!patient && touched ? (
        <p
          role="status"
          className="mb-4 rounded-control bg-warning-soft p-3 text-warning-strong ring-1 ring-warning/30 ring-inset"
        >
          {CARE_MESSAGES.selectPatientWarning}
        </p>
      ) : null}
      <PermissionPicker
        legend={patient ? `Permissions for ${patient.name}` : 'Permissions'}
        value={chosen}
        locked={granted}
        onChange={change}
        idPrefix="request-permissions"
      />
      <FormAlert message={failure} className="mt-4" />
      {/* The button appears only after a change. */}
      {touched && (fresh.length > 0 || !patient) ? (
        <Button type="submit" className="mt-4" disabled={busy}>
          {busy ? 'Sending...' : 'Save Changes'}
        </Button>
      ) : null}
    </form>
  );
}
