import type { FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import toast from 'react-hot-toast';
import { loginBodySchema, type LoginBody } from '../../../domain/auth';
import { signIn } from '../../../local/account';
import { TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';
import { homeFor } from '../../shell/guards';

export function SignInForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const navigate = useNavigate();
  const form = useZodForm(loginBodySchema, { email: '', password: '' });
  const { busy, failure, run } = useSubmit();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate<LoginBody>();
    if (!body) return;
    await run(async () => {
      const profile = await signIn(body);
      toast.success('Logged in successfully');
      await navigate({
        to: profile.beta_policy_accepted_at ? homeFor(profile.role) : '/beta-user-policy',
        replace: true,
      });
    });
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Sign in">
      <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        {...form.field('password')}
      />
      <FormAlert message={failure} />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Signing in...' : 'Sign in'}
      </Button>
      <button
        type="button"
        onClick={onForgotPassword}
        className="mt-4 block text-sm font-medium text-brand-800 underline"
      >
        Forgot password?
      </button>
    </form>
  );
}
