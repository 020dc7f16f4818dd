import { useEffect, type ReactNode } from 'react';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { hasUserDb, userDb } from '../../local/db';
import { Button } from '../ui/button';

// Until the person has accepted the beta policy, the signed-in app is only the policy (src/app/README.md,
// "The beta policy gate"): no menu, no tab bar, no other screen. What stays reachable is the policy, the
// legal pages it points to, and signing out. Any other signed-in address leads back to the policy, so a
// change can never be typed here only to be refused by the server afterwards.

const POLICY_PATH = '/beta-user-policy';

async function stillPending(userId: string): Promise<boolean> {
  if (!hasUserDb()) return false;
  const profile = await userDb().profile.get(userId);
  return Boolean(profile && !profile.beta_policy_accepted_at);
}

type Props = { userId: string; onSignOut: () => void; dialogs?: ReactNode };

export function PolicyGate({ userId, onSignOut, dialogs }: Props) {
  // The page shown, not the one being opened: on the way to a legal page (outside the signed-in app) this
  // gate is still drawn for a moment, and must not call the person back.
  const pathname = useRouterState({ select: (state) => (state.resolvedLocation ?? state.location).pathname });
  const navigate = useNavigate();
  const onPolicy = pathname === POLICY_PATH;
  useEffect(() => {
    if (onPolicy) return;
    let left = false;
    // Asked of the table itself: just after the policy is accepted this gate may still be drawn from the
    // profile as it was, and must not send the person back to it.
    void stillPending(userId).then((pending) => {
      if (pending && !left) void navigate({ to: POLICY_PATH, replace: true });
    });
    return () => {
      left = true;
    };
  }, [onPolicy, navigate, userId]);
  return (
    <div className="flex h-dvh flex-col bg-canvas text-text">
      <header className="shrink-0 border-b border-border bg-surface pt-safe-top pr-safe-right pl-safe-left">
        <div className="flex items-center justify-between gap-2 px-4 py-2 md:px-6 md:py-3">
          <p className="text-lg font-semibold text-primary-strong">Kincare</p>
          <Button variant="secondary" onClick={onSignOut}>
            Sign out
          </Button>
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="min-h-0 flex-1 overflow-x-hidden overflow-y-auto px-4 py-4 focus:outline-none md:p-6"
      >
        <div className="mx-auto w-full max-w-3xl">{onPolicy ? <Outlet /> : null}</div>
      </main>
      <footer className="shrink-0 border-t border-border bg-surface pb-safe-bottom">
        <nav aria-label="Legal" className="flex flex-wrap justify-center gap-x-2 px-4">
          <Link
            to="/terms-of-use"
            className="inline-flex min-h-11 items-center px-2 text-primary-strong underline"
          >
            Terms of Use
          </Link>
          <Link
            to="/privacy-policy"
            className="inline-flex min-h-11 items-center px-2 text-primary-strong underline"
          >
            Privacy Policy
          </Link>
        </nav>
      </footer>
      {dialogs}
    </div>
  );
}
