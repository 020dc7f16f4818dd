import { useState, type FormEvent } from 'react';
import { registerBodySchema, type RegisterBody } from '../../../domain/auth';
import { ACCOUNT_TYPES } from '../../../domain/options';
import { register } from '../../../local/account';
import { errorMessages, fieldErrors } from '../../../local/http';
import { SelectField, TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { useZodForm } from '../../ui/use-zod-form';

export function SignUpForm() {
  const form = useZodForm(registerBodySchema, {
    name: '',
    email: '',
    password: '',
    role: 'Patient',
    zip_code: '',
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate<RegisterBody>();
    if (!body) return;
    setBusy(true);
    setFailure(null);
    try {
      setDone(await register(body));
    } catch (error) {
      form.setServerErrors(fieldErrors(error));
      setFailure(errorMessages(error).join(' '));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <div role="status" className="rounded bg-brand-50 p-4 text-brand-900">
        <p className="font-semibold">Almost there!</p>
        <p className="mt-1">{done}</p>
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
      {failure ? (
        <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-sm text-red-800">
          {failure}
        </p>
      ) : null}
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Creating your account...' : 'Create account'}
      </Button>
    </form>
  );
}
