import { Link } from '@tanstack/react-router';
import { Card, PageTitle } from '../../ui/page';
import { useProfile, useSession } from '../../shell/use-session';

/** The home screen after sign-in: a welcome and the way to each section. */
export function DashboardPage() {
  const profile = useProfile();
  const session = useSession();
  const caregiver = session?.role === 'Caregiver';
  return (
    <>
      <PageTitle
        description={
          caregiver ? 'Look after the people you care for.' : 'Everything about your health, in one place.'
        }
      >
        Dashboard
      </PageTitle>
      <Card>
        <p className="text-slate-800">Welcome{profile ? `, ${profile.name}` : ''}.</p>
        {caregiver ? (
          <p className="mt-2 text-slate-700">
            Patients who invite you appear under{' '}
            <Link to="/caregiver/patients" className="font-semibold text-brand-800 underline">
              Patients
            </Link>
            .
          </p>
        ) : (
          <p className="mt-2 text-slate-700">
            Start with your{' '}
            <Link to="/profile" className="font-semibold text-brand-800 underline">
              profile
            </Link>
            , then add your doctors and appointments.
          </p>
        )}
      </Card>
    </>
  );
}
