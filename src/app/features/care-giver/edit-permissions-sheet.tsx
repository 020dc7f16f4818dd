import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { updatePermissionBodySchema, type ApprovedRequest } from '../../../domain/caregivers';
import { isPermission, type Permission } from '../../../domain/permissions';
import { updateCaregiverPermissions } from '../../../local/care-requests';
import { fieldErrors, OFFLINE_MESSAGE } from '../../../local/http-errors';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/fields';
import { FormAlert } from '../../ui/form-alert';
import { PermissionPicker } from '../../ui/permission-picker';
import { Sheet } from '../../ui/sheet';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';

// Change what a linked caregiver may do, and their phone number. The server applies it at once: what they
// may no longer read leaves their device at its next sync.

const phoneSchema = updatePermissionBodySchema.pick({ phone_number: true });

type Props = { caregiver: ApprovedRequest; onClose: () => void };

export function EditPermissionsSheet({ caregiver, onClose }: Props) {
  const form = useZodForm(phoneSchema, { phone_number: caregiver.phone_number ?? '' });
  const [permissions, setPermissions] = useState<Permission[]>(() =>
    caregiver.permissions.filter(isPermission),
  );
  const [permissionsError, setPermissionsError] = useState<string | null>(null);
  const { busy, failure, setFailure, run } = useSubmit();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const values = form.validate<{ phone_number: string | null }>();
    if (!values) return;
    if (!navigator.onLine) {
      setFailure(OFFLINE_MESSAGE);
      return;
    }
    setPermissionsError(null);
    await run(
      async () => {
        toast.success(
          await updateCaregiverPermissions({
            permissions,
            permission_id: caregiver.permission_id,
            phone_number: values.phone_number,
          }),
        );
        onClose();
      },
      (error) => {
        const { permissions: permissionsProblem, ...fields } = fieldErrors(error);
        form.setServerErrors(fields);
        setPermissionsError(permissionsProblem ?? null);
      },
    );
  };

  return (
    <Sheet open onClose={onClose} title={`Permissions of ${caregiver.name}`}>
      <form
        onSubmit={(event) => void submit(event)}
        noValidate
        aria-label={`Edit permissions of ${caregiver.name}`}
        className="mt-4"
      >
        <div className="mb-4">
          <PermissionPicker
            legend="What this caregiver may do"
            idPrefix={`edit-${caregiver.permission_id}`}
            value={permissions}
            onChange={(next) => {
              setPermissions(next);
              setPermissionsError(null);
            }}
          />
          {permissionsError ? (
            <p role="alert" className="mt-1 text-small text-danger">
              {permissionsError}
            </p>
          ) : null}
        </div>
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="off"
          inputMode="tel"
          {...form.field('phone_number')}
        />
        <FormAlert message={failure} />
        <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : 'Save permissions'}
          </Button>
        </div>
      </form>
    </Sheet>
  );
}
