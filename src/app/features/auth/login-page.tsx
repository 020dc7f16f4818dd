import { lazy, Suspense, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Tabs } from '../../ui/tabs';
import { SignInForm } from './sign-in-form';

// Sign-up and the password reset load when asked for: the page's first paint carries sign-in only.
const SignUpForm = lazy(() => import('./sign-up-form').then((module) => ({ default: module.SignUpForm })));
const ForgotPassword = lazy(() =>
  import('./forgot-password').then((module) => ({ default: module.ForgotPassword })),
);

const loadingForm = <p className="py-8 text-center text-slate-700">Loading...</p>;

/** The sign-in and sign-up page (/login). */
export function LoginPage() {
  const [resetting, setResetting] = useState(false);
  const [tab, setTab] = useState(0);
  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-4 py-10">
      <div className="w-full max-w-md">
        <div className="mb-6 text-center">
          <img src="/icons/icon-192.png" alt="" className="mx-auto h-16 w-16" />
          <h1 className="mt-3 text-3xl font-bold text-brand-900">Kincare</h1>
          <p className="mt-1 text-slate-700">Your health, and the people who care for you.</p>
        </div>
        <div className="rounded-lg bg-white p-6 shadow ring-1 ring-slate-200">
          {resetting ? (
            <Suspense fallback={loadingForm}>
              <ForgotPassword onDone={() => setResetting(false)} />
            </Suspense>
          ) : (
            <Tabs labels={['Sign in', 'Sign up']} selected={tab} onSelect={setTab}>
              {tab === 0 ? (
                <SignInForm onForgotPassword={() => setResetting(true)} />
              ) : (
                <Suspense fallback={loadingForm}>
                  <SignUpForm />
                </Suspense>
              )}
            </Tabs>
          )}
        </div>
        <p className="mt-6 text-center text-sm text-slate-700">
          <Link to="/terms-of-use" className="underline">
            Terms of Use
          </Link>{' '}
          ·{' '}
          <Link to="/privacy-policy" className="underline">
            Privacy Policy
          </Link>
        </p>
      </div>
    </main>
  );
}
