import { Suspense, useId, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from '@tanstack/react-router';
import { greetingFor } from '../../domain/clock';
import { requiredPermissionFor } from '../../domain/permissions';
import type { Role } from '../../domain/roles';
import type { AssociatedPatientEntry } from '../../domain/caregivers';
import {
  setSelectedPatientId,
  useAssociatedPatients,
  useSelectedPatientId,
  useSelectionUpkeep,
} from './use-selected-patient';
import { useProfile } from './use-session';
import { useScreenDrawn } from '../ui/first-screen';
import { lazyPart } from '../ui/lazy-part';

// The weather (its icons, the position, the call) loads after the first paint: it is not part of any
// first screen's JavaScript budget (tests/build/budget.mjs), and a screen never waits for it.
const WeatherChip = lazyPart(() => import('./weather-chip').then((module) => module.default));

// The header (src/app/README.md): the greeting with the user's name, the weather (weather-chip.tsx),
// the caregiver's 'Select Patient', the sync status and the profile button by role. On a phone (and up to
// 1024 px, where the sidebar leaves too little room) the first line keeps the greeting, the weather, the
// sync status and the avatar, and 'Select Patient' has its own line below (one tap opens the device's own
// picker).

type Props = { role: Role; weather?: ReactNode; syncStatus?: ReactNode };

export function Header({ role, weather, syncStatus }: Props) {
  const profile = useProfile();
  const drawn = useScreenDrawn();
  const greeting = greetingFor(new Date().getHours());
  const profilePath = role === 'Caregiver' ? '/caregiver/profile' : '/profile';
  const patients = useAssociatedPatients();
  // One place keeps the caregiver's selection true to their links (a removed link, a withdrawn permission).
  useSelectionUpkeep(role === 'Caregiver' ? patients : undefined);
  return (
    // `relative`: the sync status details open below the header on larger screens, right-aligned.
    <header className="relative shrink-0 border-b border-border bg-surface pt-safe-top pr-safe-right pl-safe-left text-text">
      <div className="flex items-center justify-between gap-2 px-4 py-2 md:gap-4 md:px-6 md:py-3">
        <div className="flex min-w-0 items-center gap-2 md:gap-4">
          {/* On a phone the greeting and the first name are two short lines, so that the weather, the sync
              status and the avatar fit beside them without cutting either; from 768 px one line. */}
          <p
            className="min-w-0 leading-tight text-text md:truncate md:text-lg md:font-semibold"
            data-testid="greeting"
          >
            <span className="block truncate text-sm text-muted md:inline md:text-lg md:text-text">
              {greeting}
            </span>
            {/* The phone's second line is there before the profile is read, so the greeting does not move. */}
            <span className="block truncate text-base font-semibold md:hidden">
              {profile ? profile.name.trim().split(/\s+/)[0] : '\u00a0'}
            </span>
            {profile ? (
              <>
                <span className="hidden md:inline">{', '}</span>
                <span className="hidden md:inline">{profile.name}</span>
              </>
            ) : null}
          </p>
          {/* On a phone the weather is its icon and temperatures (the chip hides the place below 768 px). */}
          {weather ??
            (drawn ? (
              <Suspense fallback={null}>
                <WeatherChip />
              </Suspense>
            ) : null)}
        </div>
        <div className="flex shrink-0 items-center gap-2 md:gap-4">
          {role === 'Caregiver' ? (
            <div className="hidden lg:block">
              <PatientSelector patients={patients} />
            </div>
          ) : null}
          {syncStatus}
          <Link
            to={profilePath}
            aria-label="Profile"
            className="inline-flex h-11 w-11 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary-soft font-semibold text-primary-strong ring-1 ring-border focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
          >
            <Avatar name={profile?.name} photoUrl={profile?.photo_url ?? null} />
          </Link>
        </div>
      </div>
      {role === 'Caregiver' ? (
        <div className="px-4 pb-2 md:px-6 lg:hidden">
          <PatientSelector patients={patients} />
        </div>
      ) : null}
    </header>
  );
}

/** Up to two initials of a name ('Rosa Diaz' -> 'RD'), or '?' before the profile has loaded. */
export function initialsOf(name: string | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words.at(-1)?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}

/** The profile photo from the device's copy of the profile, or the initials when there is none (or it fails). */
function Avatar({ name, photoUrl }: { name: string | undefined; photoUrl: string | null }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (photoUrl && failed !== photoUrl) {
    return (
      <img
        src={photoUrl}
        alt=""
        data-testid="avatar-photo"
        className="h-full w-full object-cover"
        onError={() => setFailed(photoUrl)}
      />
    );
  }
  return (
    // Drawn from the attribute (styles.css) rather than as text: the link's name is 'Profile', and
    // visible text that is not part of a name confuses people who steer by voice. It fills the circle, so
    // '?' becoming 'PP' once the profile is read moves nothing.
    <span
      aria-hidden="true"
      data-testid="avatar-initials"
      data-initials={initialsOf(name)}
      className="flex h-full w-full items-center justify-center"
    />
  );
}

/** 'Select Patient': the caregiver's patients by name and e-mail, from the replica. */
function PatientSelector({ patients }: { patients: readonly AssociatedPatientEntry[] | undefined }) {
  const id = useId();
  const selected = useSelectedPatientId();
  const navigate = useNavigate();
  const pathname = useLocation({ select: (location) => location.pathname });
  const choose = (patientId: string) => {
    setSelectedPatientId(patientId || null);
    // The screen open now may need a permission the newly chosen patient has not given.
    const needed = requiredPermissionFor(pathname);
    const link = patients?.find((patient) => patient.patient_id === patientId);
    if (needed && !link?.permissions.includes(needed)) void navigate({ to: '/caregiver/dashboard' });
  };
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="shrink-0 text-small font-medium text-text">
        Select Patient
      </label>
      <select
        id={id}
        value={selected ?? ''}
        onChange={(event) => choose(event.target.value)}
        className="min-h-11 w-full min-w-0 rounded-control border border-border-strong bg-surface px-3 py-2 text-base text-text focus:outline-none focus-visible:ring-2 focus-visible:ring-focus lg:w-64"
      >
        <option value="">{patients && patients.length === 0 ? 'No patients yet' : 'Choose a patient'}</option>
        {(patients ?? []).map((patient) => (
          <option key={patient.patient_id} value={patient.patient_id}>
            {patient.name} ({patient.email})
          </option>
        ))}
      </select>
    </div>
  );
}
