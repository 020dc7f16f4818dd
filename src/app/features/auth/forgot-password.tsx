import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { z } from 'zod';
import { forgotPasswordBodySchema, otpSchema } from '../../../domain/auth';
import { passwordSchema } from '../../../domain/password';
import { requestPasswordReset, resetPassword, verifyOtp } from '../../../local/account';
import { TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';

// Forgot password: e-mail -> 6-digit code -> new password (SPEC section 7; toasts of section 8).

type Step = 'email' | 'otp' | 'password';
const otpForm = z.object({ otp: otpSchema });
const passwordForm = z.object({ newPassword: passwordSchema });

export function ForgotPassword({ onDone }: { onDone: () => void }) {
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const { busy, failure, run } = useSubmit();
  const emailStep = useZodForm(forgotPasswordBodySchema, { email: '' });
  const otpStep = useZodForm(otpForm, { otp: '' });
  const passwordStep = useZodForm(passwordForm, { newPassword: '' });

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
          await verifyOtp(email, body.otp);
          toast.success('OTP verified successfully!');
          setStep('password');
        });
    } else {
      const body = passwordStep.validate<{ newPassword: string }>();
      if (body)
        void run(async () => {
          await resetPassword(email, body.newPassword);
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
        </>
      ) : null}
      {step === 'password' ? (
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          hint="At least 8 characters, with a letter and a number."
          {...passwordStep.field('newPassword')}
        />
      ) : null}
      <FormAlert message={failure} />
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
