import { useState, type FormEvent } from 'react';
import { registerBodySchema, type RegisterBody } from '../../../domain/auth';
import { ACCOUNT_TYPES } from '../../../domain/options';
import { register } from './account-actions';
import { fieldErrors, OFFLINE_MESSAGE } from '../../../local/http-errors';
import { SelectField, TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';
import { useOnline } from '../../ui/use-online';
import { ResendVerification } from './resend-verification';

/** `plan`: the plan chosen by a corporate sign-up link (/signup/:plan), kept by the server for the first sign-in. */
export function SignUpForm({ plan }: { plan?: string | undefined } = {}) {
  const form = useZodForm(registerBodySchema, {
    name: '',
    email: '',
    password: '',
    role: 'Patient',
    zip_code: '',
  });
  const [done, setDone] = useState<{ message: string; email: string } | null>(null);
  const { busy, failure, run } = useSubmit();
  const online = useOnline();
  // "You are offline" is about the moment it was said: once the connection is back it no longer shows.
  const shownFailure = online && failure === OFFLINE_MESSAGE ? null : failure;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate<RegisterBody>();
    if (!body) return;
    await run(
      async () => {
        setDone({ message: await register(plan ? { ...body, plan } : body), email: body.email });
      },
      (error) => form.setServerErrors(fieldErrors(error)),
    );
  };

  if (done) {
    return (
      <div>
        <div role="status" className="rounded-control bg-primary-soft p-4 text-primary-strong">
          <p className="font-semibold">Almost there!</p>
          <p className="mt-1">{done.message}</p>
        </div>
        <p className="mt-4 text-small text-muted">
          No e-mail after a few minutes? Check your spam folder, or:
        </p>
        <ResendVerification email={done.email} />
      </div>
    );
  }
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Sign up">
      <TextField label="Full name" autoComplete="name" required {...form.field('name')} />
      <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 8 characters, with a letter and a number."
        {...form.field('password')}
      />
      <SelectField label="Account type" required options={ACCOUNT_TYPES} {...form.field('role')} />
      <TextField
        label="Zip code"
        autoComplete="postal-code"
        inputMode="numeric"
        required
        {...form.field('zip_code')}
      />
      <FormAlert message={shownFailure} />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Creating your account...' : 'Create account'}
      </Button>
    </form>
  );
}
