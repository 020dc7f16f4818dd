import { Link, useNavigate } from '@tanstack/react-router';
import { signOut } from '../../../local/account';
import { homeFor } from '../../shell/guards';
import { useSession } from '../../shell/use-session';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';

// /unauthorized is headed 'Unauthorized Access' (src/app/README.md), says why a
// person lands here and gives the way back: home for their role, or sign in.

const linkClass =
  'inline-flex min-h-11 items-center justify-center rounded-control bg-primary px-4 py-2 font-semibold text-primary-on hover:bg-primary-hover focus:outline-none focus-visible:ring-2 focus-visible:ring-focus focus-visible:ring-offset-2 focus-visible:ring-offset-surface';

export function UnauthorizedPage() {
  const session = useSession();
  const navigate = useNavigate();
  const home = homeFor(session?.role);
  const signOutNow = async () => {
    await signOut();
    await navigate({ to: '/login' });
  };
  let reason: string;
  let way: 'home' | 'sign-in' | 'sign-out';
  if (!session) {
    reason = 'This page needs you to be signed in.';
    way = 'sign-in';
  } else if (home === '/unauthorized') {
    reason = 'Kincare has no screens for this kind of account yet.';
    way = 'sign-out';
  } else if (session.role === 'Caregiver') {
    reason =
      'This page is for another kind of account, or the patient you selected has not given you permission to see it.';
    way = 'home';
  } else {
    reason = 'This page is for another kind of account.';
    way = 'home';
  }
  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-4 py-10">
      <Card as="div" padding="frame" className="w-full max-w-md">
        <h1 className="text-title text-text">Unauthorized Access</h1>
        <p className="mt-3 text-text">{reason}</p>
        <div className="mt-6">
          {way === 'home' ? (
            <Link to={home} className={linkClass}>
              Back to Dashboard
            </Link>
          ) : way === 'sign-in' ? (
            <Link to="/login" className={linkClass}>
              Go to sign in
            </Link>
          ) : (
            <Button className="min-h-11" onClick={() => void signOutNow()}>
              Sign out
            </Button>
          )}
        </div>
      </Card>
    </main>
  );
}
