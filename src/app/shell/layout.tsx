import { useState } from 'react';
import { Outlet, useNavigate } from '@tanstack/react-router';
import type { Role } from '../../domain/roles';
import { signOut } from '../../local/account';
import { Sidebar } from './sidebar';
import { Header } from './header';
import { SyncStatus } from './sync-status';
import { useReplicaSync } from './use-replica-sync';

/** The signed-in layout: the role's sidebar, the header, and the page; it keeps the replica in sync. */
export function AppLayout({ role, userId }: { role: Role; userId: string }) {
  const [collapsed, setCollapsed] = useState(false);
  const navigate = useNavigate();
  useReplicaSync(userId);
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
