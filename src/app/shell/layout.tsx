import { useState } from 'react';
import { Outlet, useNavigate } from '@tanstack/react-router';
import type { Role } from '../../domain/roles';
import { signOut } from '../../local/account';
import { Sidebar } from './sidebar';
import { Header } from './header';

/** The signed-in layout: the role's sidebar, the header, and the page. */
export function AppLayout({ role }: { role: Role }) {
  const [collapsed, setCollapsed] = useState(false);
  const navigate = useNavigate();
  const logout = async () => {
    await signOut();
    await navigate({ to: '/login' });
  };
  return (
    <div className="flex h-screen">
      <Sidebar role={role} collapsed={collapsed} onToggle={() => setCollapsed((value) => !value)} onLogout={() => void logout()} />
      <div className="flex min-w-0 flex-1 flex-col">
        <Header role={role} />
        <main id="main" className="flex-1 overflow-y-auto p-6">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
