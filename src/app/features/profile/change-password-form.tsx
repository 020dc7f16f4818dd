import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { changePasswordBodySchema, type ChangePasswordBody } from '../../../domain/auth';
import { changePassword } from '../../../local/account';
import { fieldErrors, OFFLINE_MESSAGE } from '../../../local/http-errors';
import { useOnline } from '../../ui/use-online';
import { TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';

const EMPTY = { old_password: '', new_password: '', confirm_password: '' };

export function ChangePasswordForm() {
  const form = useZodForm(changePasswordBodySchema, EMPTY);
  const { busy, failure, run } = useSubmit();
  const [changed, setChanged] = useState(false);
  const online = useOnline();
  // "You are offline" is about the moment it was said: once the connection is back it no longer shows.
  const shownFailure = online && failure === OFFLINE_MESSAGE ? null : failure;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate<ChangePasswordBody>();
    if (!body) return;
    setChanged(false);
    await run(
      async () => {
        await changePassword(body);
        form.reset(EMPTY);
        setChanged(true);
        toast.success('Password changed successfully');
      },
      (error) => form.setServerErrors(fieldErrors(error)),
    );
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
      <FormAlert message={shownFailure} className="sm:col-span-3" />
      {/* The server ends every other session on a change: say so, or a signed-out phone is a surprise. */}
      {changed ? (
        <p
          role="status"
          className="mb-4 rounded-control bg-success-soft p-3 text-small text-success-strong sm:col-span-3"
        >
          Your password is changed. For your safety we signed you out on your other devices; sign in there
          with the new password. This device stays signed in.
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
