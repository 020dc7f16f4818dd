import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { LoginBody } from '../../../domain/auth';
import { signIn } from './account-actions';
import { TextField } from '../../ui/fields';
import { toastLater } from '../../ui/toast-later';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { loadSchema, useSchemaForm } from '../../ui/use-schema-form';
import { useOnline } from '../../shell/use-online';
import { homeFor } from '../../shell/guards';
import { statusOf, OFFLINE_MESSAGE } from '../../../local/http-errors';

// The page paints before Zod and the domain's schemas arrive: they load right after (use-schema-form.ts).
const loginSchema = loadSchema(
  () => import('../../../domain/auth'),
  (module) => module.loginBodySchema,
);
const ResendVerification = lazy(() =>
  import('./resend-verification').then((module) => ({ default: module.ResendVerification })),
);
const ConfirmDialog = lazy(() =>
  import('../../ui/confirm-dialog').then((module) => ({ default: module.ConfirmDialog })),
);

export function SignInForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const navigate = useNavigate();
  const form = useSchemaForm(loginSchema, { email: '', password: '' });
  const { busy, failure, run } = useSubmit();
  const online = useOnline();
  // "You are offline" is about the moment it was said: once the connection is back it no longer shows.
  const shownFailure = online && failure === OFFLINE_MESSAGE ? null : failure;
  // The address of a sign-in refused as not verified yet (403): the person can ask for a new link.
  const [unverified, setUnverified] = useState<string | null>(null);
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
    let body: LoginBody | null = null;
    setUnverified(null);
    await run(
      async () => {
        body = await form.validateReady<LoginBody>();
        if (!body) return;
        const profile = await signIn(body, confirmDeletingOthersChanges);
        if (!profile) return;
        toastLater((toast) => toast.success('Logged in successfully'));
        await navigate({
          to: profile.beta_policy_accepted_at ? homeFor(profile.role) : '/beta-user-policy',
          replace: true,
        });
      },
      (error) => setUnverified(statusOf(error) === 403 && body ? body.email : null),
    );
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
      <FormAlert message={shownFailure} />
      {unverified ? (
        <Suspense fallback={null}>
          <ResendVerification key={unverified} email={unverified} />
        </Suspense>
      ) : null}
      <Button type="submit" className="mt-4 w-full" disabled={busy}>
        {busy ? 'Signing in...' : 'Sign in'}
      </Button>
      <button
        type="button"
        onClick={onForgotPassword}
        className="mt-2 block min-h-11 text-sm font-medium text-brand-800 underline"
      >
        Forgot password?
      </button>
      {/* Loaded when it is needed (rarely): the sign-in page shows without the dialog's code. */}
      {othersUnsent ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            title="Unsent changes on this device"
            message={`This device holds ${othersUnsent?.count === 1 ? '1 unsent change' : `${othersUnsent?.count ?? 0} unsent changes`} of the person who used Kincare here before. Signing in as you will delete ${othersUnsent?.count === 1 ? 'it' : 'them'}.`}
            confirmLabel={`Delete ${othersUnsent?.count === 1 ? 'it' : 'them'} and continue`}
            onConfirm={() => othersUnsent?.answer(true)}
            onClose={() => othersUnsent?.answer(false)}
          />
        </Suspense>
      ) : null}
    </form>
  );
}
