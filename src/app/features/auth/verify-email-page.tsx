import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { verifyEmail } from '../../../local/account';
import { errorMessages } from '../../../local/http';

type State = { kind: 'working' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

/** /verify-email/:token: confirms the address from the link in the e-mail. */
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
    <main id="main" className="flex min-h-screen items-center justify-center px-4">
      <div className="max-w-md rounded-lg bg-white p-6 text-center shadow ring-1 ring-slate-200">
        <h1 className="mb-3 text-2xl font-bold">Verify your e-mail</h1>
        <p role="status" className={state.kind === 'failed' ? 'text-red-800' : 'text-slate-800'}>
          {state.kind === 'working' ? 'Checking your link...' : state.message}
        </p>
        {state.kind !== 'working' ? (
          <Link to="/login" className="mt-4 inline-block font-semibold text-brand-800 underline">
            Go to sign in
          </Link>
        ) : null}
      </div>
    </main>
  );
}
