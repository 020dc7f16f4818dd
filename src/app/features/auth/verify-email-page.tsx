import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { verifyEmail } from '../../../local/account';
import { errorMessages } from '../../../local/http-errors';
import { ResendVerification } from './resend-verification';
import { Card } from '../../ui/card';

type State = { kind: 'working' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

const signInClass =
  'mt-4 inline-flex min-h-11 items-center justify-center rounded-control bg-primary px-4 py-2 font-semibold text-primary-on hover:bg-primary-hover focus:outline-none focus-visible:ring-2 focus-visible:ring-focus focus-visible:ring-offset-2 focus-visible:ring-offset-surface';

/**
 * /verify-email/:token: confirms the address from the link in the e-mail. Opened again once the address is
 * verified, the server says so (not an error) and the page offers sign-in; a dead link offers a new one.
 */
export function VerifyEmailPage({ token }: { token: string }) {
  const [state, setState] = useState<State>({ kind: 'working' });
  useEffect(() => {
    let live = true;
    verifyEmail(token)
      .then((message) => live && setState({ kind: 'done', message }))
      .catch(
        (error: unknown) => live && setState({ kind: 'failed', message: errorMessages(error).join(' ') }),
      );
    return () => {
      live = false;
    };
  }, [token]);
  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-4 py-10">
      <Card as="div" padding="frame" className="w-full max-w-md text-center">
        <h1 className="mb-3 text-title">Verify your e-mail</h1>
        <p role="status" className={state.kind === 'failed' ? 'text-danger-strong' : 'text-text'}>
          {state.kind === 'working' ? 'Checking your link...' : state.message}
        </p>
        {state.kind === 'done' ? (
          <Link to="/login" className={signInClass}>
            Go to sign in
          </Link>
        ) : null}
        {state.kind === 'failed' ? (
          <>
            <p className="mt-4 text-muted">Enter your e-mail address and we will send you a new link.</p>
            <ResendVerification />
            <Link
              to="/login"
              className="mt-4 inline-flex min-h-11 items-center font-semibold text-primary-strong underline"
            >
              Go to sign in
            </Link>
          </>
        ) : null}
      </Card>
    </main>
  );
}
