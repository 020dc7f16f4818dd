import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { changePasswordBodySchema, type ChangePasswordBody } from '../../../domain/auth';
import { changePassword } from '../../../local/account';
import { errorMessages, fieldErrors } from '../../../local/http';
import { TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { useZodForm } from '../../ui/use-zod-form';

const EMPTY = { old_password: '', new_password: '', confirm_password: '' };

export function ChangePasswordForm() {
  const form = useZodForm(changePasswordBodySchema, EMPTY);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate<ChangePasswordBody>();
    if (!body) return;
    setBusy(true);
    setFailure(null);
    try {
      await changePassword(body);
      form.reset(EMPTY);
      toast.success('Password changed successfully');
    } catch (error) {
      form.setServerErrors(fieldErrors(error));
      setFailure(errorMessages(error).join(' '));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label="Change password"
      className="grid gap-x-4 sm:grid-cols-3"
    >
      <TextField
        label="Old password"
        type="password"
        autoComplete="current-password"
        required
        {...form.field('old_password')}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        {...form.field('new_password')}
      />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        required
        {...form.field('confirm_password')}
      />
      {failure ? (
        <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-sm text-red-800 sm:col-span-3">
          {failure}
        </p>
      ) : null}
      <div className="sm:col-span-3">
        <Button type="submit" disabled={busy}>
          {busy ? 'Changing...' : 'Change password'}
        </Button>
      </div>
    </form>
  );
}
