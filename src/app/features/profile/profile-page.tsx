import { Suspense } from 'react';
import { lazyPart } from '../../ui/lazy-part';
import { Link } from '@tanstack/react-router';
import { formatDate } from '../../../domain/dates';
import { Card, PageTitle } from '../../ui/page';
import { useProfile } from '../../shell/use-session';
import { ProfileForm } from './profile-form';
import { ChangePasswordForm } from './change-password-form';
import { SignIns } from './sign-ins';
import { ThemeSwitch } from '../../ui/theme-switch';

// The speech switch loads after the page (nothing of speech in the first screens' JavaScript).
const SpeechSwitch = lazyPart(
  () => import('../../ui/speech/speech-switch').then((module) => module.SpeechSwitch),
  <p className="text-muted">The speech settings will show when you are back online.</p>,
);

/** /profile and /caregiver/profile: who you are, your details, your password, where you are signed in. */
export function ProfilePage() {
  const profile = useProfile();
  if (!profile) return <PageTitle>Profile</PageTitle>;
  return (
    <>
      <PageTitle description={<span className="[overflow-wrap:anywhere]">{profile.email}</span>}>
        Profile
      </PageTitle>
      {/* minmax(0, 1fr): a long e-mail address wraps inside its card instead of widening the page on a phone. */}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-1">
          <h2 className="mb-3 text-lg font-semibold">About you</h2>
          {profile.photo_url ? (
            <img
              src={profile.photo_url}
              alt="Your profile photo"
              className="mb-3 h-24 w-24 rounded-full object-cover"
            />
          ) : null}
          <dl className="space-y-2 text-sm">
            <Row term="Name" value={profile.name} />
            <Row
              term="Account type"
              value={profile.role === 'Caregiver' ? 'Family and Caregiver' : profile.role}
            />
            <Row term="Email" value={profile.email} />
            <Row term="Zip code" value={profile.zip_code} />
            <Row term="Age" value={profile.age === null ? 'Not set' : String(profile.age)} />
          </dl>
        </Card>
        <Card className="lg:col-span-2">
          <h2 className="mb-3 text-lg font-semibold">Update profile</h2>
          <ProfileForm profile={profile} />
        </Card>
        <Card className="lg:col-span-3">
          <h2 className="mb-3 text-lg font-semibold">Change password</h2>
          <ChangePasswordForm />
        </Card>
        <Card className="lg:col-span-3">
          <h2 className="mb-3 text-lg font-semibold">Display</h2>
          <ThemeSwitch />
          <Suspense fallback={null}>
            <SpeechSwitch />
          </Suspense>
        </Card>
        <Card className="lg:col-span-3">
          <h2 className="mb-3 text-lg font-semibold">Signed-in devices</h2>
          <SignIns />
        </Card>
        <Card className="lg:col-span-3">
          <h2 className="mb-3 text-lg font-semibold">Policies</h2>
          {profile.beta_policy_accepted_at ? (
            <p className="mb-2 text-sm text-muted">
              You accepted the Beta User Policy on {formatDate(profile.beta_policy_accepted_at)}.
            </p>
          ) : null}
          <ul className="flex flex-wrap gap-x-4">
            <li>
              <Link
                to="/beta-user-policy"
                className="inline-flex min-h-11 items-center text-primary-strong underline"
              >
                Read the Beta User Policy
              </Link>
            </li>
            <li>
              <Link
                to="/terms-of-use"
                className="inline-flex min-h-11 items-center text-primary-strong underline"
              >
                Terms of Use
              </Link>
            </li>
            <li>
              <Link
                to="/privacy-policy"
                className="inline-flex min-h-11 items-center text-primary-strong underline"
              >
                Privacy Policy
              </Link>
            </li>
          </ul>
        </Card>
      </div>
    </>
  );
}

function Row({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-600">{term}</dt>
      <dd className="min-w-0 text-right font-medium [overflow-wrap:anywhere] text-slate-900">{value}</dd>
    </div>
  );
}
