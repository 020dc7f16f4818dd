import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { LoginBody } from '../../../domain/auth';
import type { SubscriptionRequiredBody } from '../../../domain/billing';
import type { SubscriptionRequiredError } from '../../../local/account';
import { signIn } from './account-actions';
import { TextField } from '../../ui/fields';
import { toastLater } from '../../ui/toast-later';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { loadSchema, useSchemaForm } from '../../ui/use-schema-form';
import { useOnline } from '../../ui/use-online';
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
// The plan choice of a patient without a subscription: rare, so loaded only when the login asks for it.
const SubscriptionModal = lazy(() =>
  import('./subscription-modal').then((module) => ({ default: module.SubscriptionModal })),
);

/** The login's 403 SUBSCRIPTION_REQUIRED (local/account.ts), told by its name: the class stays unloaded. */
function isSubscriptionRequired(error: unknown): error is SubscriptionRequiredError {
  return error instanceof Error && error.name === 'SubscriptionRequiredError';
}

export function SignInForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const navigate = useNavigate();
  const form = useSchemaForm(loginSchema, { email: '', password: '' });
  const { busy, failure, setFailure, run } = useSubmit();
  const online = useOnline();
  // "You are offline" is about the moment it was said: once the connection is back it no longer shows.
  const shownFailure = online && failure === OFFLINE_MESSAGE ? null : failure;
  // The address of a sign-in refused as not verified yet (403): the person can ask for a new link.
  const [unverified, setUnverified] = useState<string | null>(null);
  // A patient the login asked to choose a plan first, with what they typed (to sign in once subscribed).
  const [planChoice, setPlanChoice] = useState<{
    required: SubscriptionRequiredBody;
    body: LoginBody;
  } | null>(null);
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

  const signInWith = async (body: LoginBody) => {
    const profile = await signIn(body, confirmDeletingOthersChanges).catch((error: unknown) => {
      if (!isSubscriptionRequired(error)) throw error;
      setPlanChoice({ required: error.body, body });
      return null;
    });
    if (!profile) return;
    toastLater((toast) => toast.success('Logged in successfully'));
    await navigate({
      to: profile.beta_policy_accepted_at ? homeFor(profile.role) : '/beta-user-policy',
      replace: true,
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let body: LoginBody | null = null;
    setUnverified(null);
    await run(
      async () => {
        body = await form.validateReady<LoginBody>();
        if (body) await signInWith(body);
      },
      (error) => setUnverified(statusOf(error) === 403 && body ? body.email : null),
    );
  };

  // The plan started: the sign-in goes on with the same credentials, as if the person had pressed Sign in.
  const afterSubscribed = async (body: LoginBody) => {
    setPlanChoice(null);
    await run(() => signInWith(body));
  };
  // Closed without a plan: the form says, in the server's words, why the sign-in stopped.
  const closePlanChoice = () => {
    setFailure(planChoice?.required.message ?? null);
    setPlanChoice(null);
  };

  return (
    <>
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
      {/* Outside the form: the modal has a form of its own, whose submit must not reach this one (React
        carries events up through portals). */}
      {planChoice ? (
        <Suspense fallback={null}>
          <SubscriptionModal
            key={planChoice.required.userId}
            required={planChoice.required}
            onSubscribed={() => afterSubscribed(planChoice.body)}
            onClose={closePlanChoice}
          />
        </Suspense>
      ) : null}
    </>
  );
}
