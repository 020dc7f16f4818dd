import { Link } from '@tanstack/react-router';
import { DateTime } from 'luxon';
import type { ReactNode } from 'react';
import { greetingFor } from '../../domain/dates';
import type { Role } from '../../domain/roles';
import { useProfile } from './use-session';

// The header (SPEC sections 2 and 9): the greeting with the user's name, slots that later features fill
// (the weather; the caregiver's 'Select Patient'; the sync status), and the profile button by role.

type Props = { role: Role; weather?: ReactNode; patientSelector?: ReactNode; syncStatus?: ReactNode };

export function Header({ role, weather, patientSelector, syncStatus }: Props) {
  const profile = useProfile();
  const greeting = greetingFor(DateTime.now().hour);
  const profilePath = role === 'Caregiver' ? '/caregiver/profile' : '/profile';
  return (
    // `relative`: the sync status details open below the header, right-aligned, whatever the screen width.
    <header className="relative flex flex-wrap items-center justify-between gap-4 border-b border-slate-200 bg-white px-4 py-3 sm:px-6">
      <div className="flex items-center gap-4">
        <p className="text-lg font-semibold text-slate-900" data-testid="greeting">
          {greeting}
          {profile ? `, ${profile.name}` : ''}
        </p>
        {weather}
      </div>
      <div className="flex flex-wrap items-center gap-4">
        {role === 'Caregiver' ? patientSelector : null}
        {syncStatus}
        <Link
          to={profilePath}
          aria-label="Profile"
          className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        >
          {profile?.name.slice(0, 1).toUpperCase() ?? '?'}
        </Link>
      </div>
    </header>
  );
}
