import { useEffect, useState } from 'react';
import { Outlet, useNavigate } from '@tanstack/react-router';
import toast from 'react-hot-toast';
import type { Role } from '../../domain/roles';
import { UNAUTHORIZED_TOAST } from '../../domain/errors';
import { signOut } from '../../local/account';
import { clearSession } from '../../local/session';
import { startSync, stopSync } from '../../local/sync-client';
import { closeUserDb } from '../../local/db';
import { STORAGE_KEYS } from '../../domain/storage-keys';
import { Sidebar } from './sidebar';
import { Header } from './header';
import { SyncStatus } from './sync-status';
import { useFailedChangeToasts } from './use-failed-change-toasts';

/** The signed-in layout: the role's sidebar, the header, and the page; it keeps the replica in sync. */
export function AppLayout({ role, userId }: { role: Role; userId: string }) {
  const [collapsed, setCollapsed] = useState(false);
  const navigate = useNavigate();
  useFailedChangeToasts();
  useEffect(() => {
    // Signed out in another tab: this one closes the replica (being deleted) and follows to /login.
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.token && event.newValue === null) {
        stopSync();
        closeUserDb();
        void navigate({ to: '/login', replace: true });
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [navigate]);
  useEffect(
    () =>
      startSync(userId, {
        onResult: (result) => {
          if (result.push.merged > 0) {
            toast('Your changes were combined with changes made on another device.', {
              id: 'merged',
              duration: 4000,
            });
          }
          if (result.problem === 'signed-out') {
            // The queue stays on this device and goes out after the next sign-in.
            clearSession();
            toast.error(UNAUTHORIZED_TOAST, { id: 'unauthorized' });
            void navigate({ to: '/', replace: true });
          }
        },
      }),
    [userId, navigate],
  );
  const logout = async () => {
    await signOut();
    await navigate({ to: '/login' });
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
        <main id="main" className="flex-1 overflow-y-auto p-6">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
