import { useState, type FormEvent } from 'react';
import { registerBodySchema, type RegisterBody } from '../../../domain/auth';
import { ACCOUNT_TYPES } from '../../../domain/options';
import { register } from '../../../local/account';
import { fieldErrors } from '../../../local/http';
import { SelectField, TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';

export function SignUpForm() {
  const form = useZodForm(registerBodySchema, {
    name: '',
    email: '',
    password: '',
    role: 'Patient',
    zip_code: '',
  });
  const [done, setDone] = useState<string | null>(null);
  const { busy, failure, run } = useSubmit();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate<RegisterBody>();
    if (!body) return;
    await run(
      async () => {
        setDone(await register(body));
      },
      (error) => form.setServerErrors(fieldErrors(error)),
    );
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
      <FormAlert message={failure} />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Creating your account...' : 'Create account'}
      </Button>
    </form>
  );
}
