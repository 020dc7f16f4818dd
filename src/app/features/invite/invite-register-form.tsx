import { useId, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { inviteRegisterBodySchema, type InviteRegisterBody } from '../../../domain/auth';
import { CARE_MESSAGES } from '../../../domain/caregivers';
import { registerInvitedCaregiver } from '../../../local/care-requests';
import { errorMessages, fieldErrors } from '../../../local/http-errors';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/fields';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';

// The invited person's sign-up: name, password and zip code; the e-mail is the invitation's and cannot be
// changed here (the link proves they read that mailbox). Success continues to /onboarding/:token.

export function InviteRegisterForm(props: { token: string; email: string; onDeadLink: () => void }) {
  const navigate = useNavigate();
  const emailId = useId();
  const form = useZodForm(inviteRegisterBodySchema, {
    token: props.token,
    name: '',
    password: '',
    zip_code: '',
  });
  const { busy, failure, run } = useSubmit();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate<InviteRegisterBody>();
    if (!body) return;
    await run(
      async () => {
        const onboardingToken = await registerInvitedCaregiver(body);
        await navigate({ to: '/onboarding/$token', params: { token: onboardingToken }, replace: true });
      },
      (error) => {
        if (errorMessages(error).includes(CARE_MESSAGES.inviteInvalid)) props.onDeadLink();
        else form.setServerErrors(fieldErrors(error));
      },
    );
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Create your caregiver account">
      <div className="mb-4">
        <label htmlFor={emailId} className="block text-small font-medium text-text">
          Email
        </label>
        <input
          id={emailId}
          type="email"
          value={props.email}
          readOnly
          autoComplete="username"
          className="mt-1 block min-h-11 w-full min-w-0 rounded-control border border-border bg-surface-muted px-3 py-2 text-base text-text"
        />
      </div>
      <TextField label="Full name" autoComplete="name" required {...form.field('name')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 8 characters, with a letter and a number."
        {...form.field('password')}
      />
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
