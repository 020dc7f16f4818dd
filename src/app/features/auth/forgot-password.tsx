import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { z } from 'zod';
import { forgotPasswordBodySchema, otpSchema } from '../../../domain/auth';
import { PASSWORD_MESSAGES, passwordSchema } from '../../../domain/password';
import { requestPasswordReset, resetPassword, verifyOtp } from './account-actions';
import { TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';
import { useOnline } from '../../ui/use-online';
import { OFFLINE_MESSAGE } from '../../../local/http-errors';

// Forgot password: e-mail -> 6-digit code -> new password, each step toasted when it succeeds. The reset
// token verify-otp answers is held in this component's state only (never stored) and sent with the new password.

type Step = 'email' | 'otp' | 'password';
const otpForm = z.object({ otp: otpSchema });
// The new password twice: a typo on a phone keyboard would otherwise lock the person out again.
const passwordForm = z
  .object({
    newPassword: passwordSchema,
    confirmPassword: z.string().min(1, PASSWORD_MESSAGES.required),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    message: PASSWORD_MESSAGES.mismatch,
    path: ['confirmPassword'],
  });

export function ForgotPassword({ onDone }: { onDone: () => void }) {
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [resetToken, setResetToken] = useState('');
  const { busy, failure, run } = useSubmit();
  const online = useOnline();
  // "You are offline" is about the moment it was said: once the connection is back it no longer shows.
  const shownFailure = online && failure === OFFLINE_MESSAGE ? null : failure;
  const resend = useSubmit();
  const emailStep = useZodForm(forgotPasswordBodySchema, { email: '' });
  const otpStep = useZodForm(otpForm, { otp: '' });
  const passwordStep = useZodForm(passwordForm, { newPassword: '', confirmPassword: '' });

  // The same call as the first step (its limits apply); a new code replaces the one sent before.
  const resendCode = () =>
    void resend.run(async () => {
      await requestPasswordReset(email);
      otpStep.reset({ otp: '' });
      toast.success('OTP send successfully!');
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step === 'email') {
      const body = emailStep.validate<{ email: string }>();
      if (body)
        void run(async () => {
          await requestPasswordReset(body.email);
          setEmail(body.email);
          toast.success('OTP send successfully!');
          setStep('otp');
        });
    } else if (step === 'otp') {
      const body = otpStep.validate<{ otp: string }>();
      if (body)
        void run(async () => {
          setResetToken(await verifyOtp(email, body.otp));
          toast.success('OTP verified successfully!');
          setStep('password');
        });
    } else {
      const body = passwordStep.validate<{ newPassword: string; confirmPassword: string }>();
      if (body)
        void run(async () => {
          await resetPassword(email, body.newPassword, resetToken);
          toast.success('Reset password successfully!');
          onDone();
        });
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Reset password">
      <h2 className="mb-2 text-lg font-semibold">Reset your password</h2>
      {step === 'email' ? (
        <TextField label="Email" type="email" autoComplete="email" required {...emailStep.field('email')} />
      ) : null}
      {step === 'otp' ? (
        <>
          <p className="mb-3 text-sm text-slate-700">
            We sent a 6-digit code to {email}. It is valid for 10 minutes.
          </p>
          <TextField
            label="6-digit code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            {...otpStep.field('otp')}
          />
          <FormAlert message={resend.failure} />
          <p className="mb-4 text-small text-muted">
            No code?{' '}
            <button
              type="button"
              onClick={resendCode}
              disabled={resend.busy}
              className="inline-flex min-h-11 items-center font-semibold text-primary-strong underline focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
            >
              {resend.busy ? 'Sending...' : 'Resend code'}
            </button>
          </p>
        </>
      ) : null}
      {step === 'password' ? (
        <>
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            hint="At least 8 characters, with a letter and a number."
            {...passwordStep.field('newPassword')}
          />
          <TextField
            label="Confirm password"
            type="password"
            autoComplete="new-password"
            required
            {...passwordStep.field('confirmPassword')}
          />
        </>
      ) : null}
      <FormAlert message={shownFailure} />
      <div className="flex gap-3">
        <Button type="submit" disabled={busy}>
          {step === 'email' ? 'Send code' : step === 'otp' ? 'Verify code' : 'Set new password'}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Back to sign in
        </Button>
      </div>
    </form>
  );
}
