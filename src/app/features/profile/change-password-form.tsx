import type { FormEvent } from 'react';
import toast from 'react-hot-toast';
import { changePasswordBodySchema, type ChangePasswordBody } from '../../../domain/auth';
import { changePassword } from '../../../local/account';
import { fieldErrors } from '../../../local/http';
import { TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';

const EMPTY = { old_password: '', new_password: '', confirm_password: '' };

export function ChangePasswordForm() {
  const form = useZodForm(changePasswordBodySchema, EMPTY);
  const { busy, failure, run } = useSubmit();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate<ChangePasswordBody>();
    if (!body) return;
    await run(
      async () => {
        await changePassword(body);
        form.reset(EMPTY);
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
      <FormAlert message={failure} className="sm:col-span-3" />
      <div className="sm:col-span-3">
        <Button type="submit" disabled={busy}>
          {busy ? 'Changing...' : 'Change password'}
        </Button>
      </div>
    </form>
  );
}
