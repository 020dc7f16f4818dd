import { useState } from 'react';
import { Outlet, useNavigate } from '@tanstack/react-router';
import type { Role } from '../../domain/roles';
import { signOut } from '../../local/account';
import { hasUserDb, unsentChangeCount, userDb } from '../../local/db';
import { Sidebar } from './sidebar';
import { Header } from './header';
import { SyncStatus } from './sync-status';
import { UnsentChangesDialog } from './unsent-changes-dialog';
import { useReplicaSync } from './use-replica-sync';

const NARROW_SCREEN = '(max-width: 767px)';

/** The signed-in layout: the role's sidebar, the header, and the page; it keeps the replica in sync. */
export function AppLayout({ role, userId }: { role: Role; userId: string }) {
  // On a phone the full sidebar would leave the page a third of the screen: it starts collapsed there.
  const [collapsed, setCollapsed] = useState(() => window.matchMedia(NARROW_SCREEN).matches);
  const [askingAboutUnsent, setAskingAboutUnsent] = useState(false);
  const navigate = useNavigate();
  useReplicaSync(userId);
  const signOutNow = async () => {
    await signOut();
    await navigate({ to: '/login' });
  };
  // Signing out deletes the replica: with changes the server has not taken, the person decides first.
  const logout = async () => {
    if (hasUserDb() && (await unsentChangeCount(userDb())) > 0) setAskingAboutUnsent(true);
    else await signOutNow();
  };
  return (
    <div className="flex h-screen">
      <Sidebar
        role={role}
        collapsed={collapsed}
        onToggle={() => setCollapsed((value) => !value)}
        onLogout={() => void logout()}
      />
      <div className="flex min-w-0 flex-1 flex-col">
        <Header role={role} syncStatus={<SyncStatus />} />
        <main id="main" className="flex-1 overflow-y-auto p-4 sm:p-6">
          <Outlet />
        </main>
      </div>
      {askingAboutUnsent ? (
        <UnsentChangesDialog onClose={() => setAskingAboutUnsent(false)} onSignOut={signOutNow} />
      ) : null}
    </div>
  );
}
