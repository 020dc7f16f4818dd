import { useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import toast from 'react-hot-toast';
import { loginBodySchema, type LoginBody } from '../../../domain/auth';
import { signIn } from '../../../local/account';
import { TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';
import { homeFor } from '../../shell/guards';

export function SignInForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const navigate = useNavigate();
  const form = useZodForm(loginBodySchema, { email: '', password: '' });
  const { busy, failure, run } = useSubmit();
  const [othersUnsent, setOthersUnsent] = useState<{ count: number; answer: (ok: boolean) => void } | null>(
    null,
  );
  // Asked by signIn once the credentials are accepted; says only how many, never whose or what.
  const confirmDeletingOthersChanges = (count: number) =>
    new Promise<boolean>((resolve) =>
      setOthersUnsent({
        count,
        answer: (ok) => {
          setOthersUnsent(null);
          resolve(ok);
        },
      }),
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate<LoginBody>();
    if (!body) return;
    await run(async () => {
      const profile = await signIn(body, confirmDeletingOthersChanges);
      if (!profile) return;
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
      <ConfirmDialog
        open={othersUnsent !== null}
        title="Unsent changes on this device"
        message={`This device holds ${othersUnsent?.count === 1 ? '1 unsent change' : `${othersUnsent?.count ?? 0} unsent changes`} of the person who used Kincare here before. Signing in as you will delete ${othersUnsent?.count === 1 ? 'it' : 'them'}.`}
        confirmLabel={`Delete ${othersUnsent?.count === 1 ? 'it' : 'them'} and continue`}
        onConfirm={() => othersUnsent?.answer(true)}
        onClose={() => othersUnsent?.answer(false)}
      />
    </form>
  );
}
