import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';
import { ForgotPassword } from './forgot-password';

const tabClass = ({ selected }: { selected: boolean }) =>
  `min-h-11 flex-1 rounded-md px-4 py-2 text-sm font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ${
    selected ? 'bg-white text-brand-900 shadow' : 'text-slate-700 hover:text-slate-900'
  }`;

/** The sign-in and sign-up page (/login). */
export function LoginPage() {
  const [resetting, setResetting] = useState(false);
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
            <ForgotPassword onDone={() => setResetting(false)} />
          ) : (
            <TabGroup>
              <TabList className="mb-6 flex gap-1 rounded-lg bg-slate-100 p-1">
                <Tab className={tabClass}>Sign in</Tab>
                <Tab className={tabClass}>Sign up</Tab>
              </TabList>
              <TabPanels>
                <TabPanel>
                  <SignInForm onForgotPassword={() => setResetting(true)} />
                </TabPanel>
                <TabPanel>
                  <SignUpForm />
                </TabPanel>
              </TabPanels>
            </TabGroup>
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
