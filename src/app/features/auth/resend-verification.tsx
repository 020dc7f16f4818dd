import { useState, type FormEvent } from 'react';
import { messageResponseSchema, resendVerificationBodySchema } from '../../../domain/auth';
import { errorMessages } from '../../../local/http-errors';
import { httpClient } from './account-actions';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/fields';
import { FormAlert } from '../../ui/form-alert';
import { useZodForm } from '../../ui/use-zod-form';

// "Resend verification e-mail": for the person whose link got lost or expired. The server answers the
// same for any address (it does not tell who has an account) and limits how often it is asked.

async function resendVerification(email: string): Promise<string> {
  const response = await (await httpClient()).post('/auth/resend-verification', { email }, { quiet: true });
  return messageResponseSchema.parse(response.data).message;
}

type Props = {
  /** The address already typed (sign-in, sign-up): only the button is shown. Without it, a field asks. */
  email?: string;
};

export function ResendVerification({ email }: Props) {
  const form = useZodForm(resendVerificationBodySchema, { email: email ?? '' });
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const body = form.validate<{ email: string }>();
    if (!body) return;
    setBusy(true);
    setFailure(null);
    try {
      setSent(await resendVerification(body.email));
    } catch (error) {
      setFailure(errorMessages(error).join(' '));
    } finally {
      setBusy(false);
    }
  };

  const result = (
    <>
      {sent ? (
        <p role="status" className="mb-3 text-small text-text">
          {sent}
        </p>
      ) : null}
      <FormAlert message={failure} />
    </>
  );

  if (email !== undefined) {
    return (
      <div className="mt-3">
        {result}
        <Button variant="secondary" disabled={busy} onClick={() => void send()}>
          {busy ? 'Sending...' : 'Resend verification e-mail'}
        </Button>
      </div>
    );
  }
  return (
    <form
      onSubmit={(event) => void send(event)}
      noValidate
      aria-label="Resend verification e-mail"
      className="mt-4 text-left"
    >
      <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
      {result}
      <Button type="submit" variant="secondary" disabled={busy}>
        {busy ? 'Sending...' : 'Resend verification e-mail'}
      </Button>
    </form>
  );
}
