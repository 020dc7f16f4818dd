import { useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import toast from 'react-hot-toast';
import { loginBodySchema, type LoginBody } from '../../../domain/auth';
import { signIn } from '../../../local/account';
import { errorMessages } from '../../../local/http';
import { TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { useZodForm } from '../../ui/use-zod-form';
import { homeFor } from '../../shell/guards';

export function SignInForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const navigate = useNavigate();
  const form = useZodForm(loginBodySchema, { email: '', password: '' });
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate<LoginBody>();
    if (!body) return;
    setBusy(true);
    setFailure(null);
    try {
      const profile = await signIn(body);
      toast.success('Logged in successfully');
      await navigate({
        to: profile.beta_policy_accepted_at ? homeFor(profile.role) : '/beta-user-policy',
        replace: true,
      });
    } catch (error) {
      setFailure(errorMessages(error).join(' '));
    } finally {
      setBusy(false);
    }
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
      {failure ? (
        <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-sm text-red-800">
          {failure}
        </p>
      ) : null}
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
