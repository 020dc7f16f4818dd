import { useState } from 'react';
import toast from 'react-hot-toast';
import { updatePermissionBodySchema, type ApprovedRequest } from '../../../domain/caregivers';
import { isPermission, type Permission } from '../../../domain/permissions';
import { updateCaregiverPermissions } from '../../../local/care-requests';
import { fieldErrors, OFFLINE_MESSAGE } from '../../../local/http-errors';
import { TextField } from '../../ui/fields';
import { GroupError, useFormSubmit } from '../../ui/form';
import { FormSheet } from '../../ui/form-sheet';
import { PermissionPicker } from '../../ui/permission-picker';
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

  const save = async (values: { phone_number: string | null }) => {
    setPermissionsError(null);
    toast.success(
      await updateCaregiverPermissions({
        permissions,
        permission_id: caregiver.permission_id,
        phone_number: values.phone_number,
      }),
    );
    onClose();
  };
  const submission = useFormSubmit(form, save, {
    unavailable: () => (navigator.onLine ? null : OFFLINE_MESSAGE),
    onError: (error) => {
      const { permissions: permissionsProblem, ...fields } = fieldErrors(error);
      form.setServerErrors(fields);
      setPermissionsError(permissionsProblem ?? null);
    },
  });

  return (
    <FormSheet
      title={`Permissions of ${caregiver.name}`}
      label={`Edit permissions of ${caregiver.name}`}
      onClose={onClose}
      onSubmit={submission.onSubmit}
      failure={submission.failure}
      // The sheet's first control (the permissions) takes the focus, not the phone number below them.
      focusFirstField={false}
      layout="dialog"
      submitLabel="Save permissions"
      busyLabel="Saving..."
      busy={submission.busy}
      onCancel={onClose}
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
        <GroupError message={permissionsError} />
      </div>
      <TextField
        label="Phone number"
        type="tel"
        autoComplete="off"
        inputMode="tel"
        {...form.field('phone_number')}
      />
    </FormSheet>
  );
}
