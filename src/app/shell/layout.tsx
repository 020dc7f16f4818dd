import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import type { Role } from '../../domain/roles';
import { DISPLAY_KEYS } from '../../domain/storage-keys';
import { hasUserDb, unsentChangeCount, userDb } from '../../local/db';
import { Sidebar } from './sidebar';
import { Header } from './header';
import { TabBar } from './tab-bar';
import type { MoreItem } from './more-sheet';
import { PATIENT_NAV, caregiverNav, caregiverSubmenu, splitForPhone } from './navigation';
import { useScreenDrawn } from '../ui/first-screen';
import { SyncStatusPlaceholder } from './sync-status-placeholder';
import { lazyPart } from '../ui/lazy-part';
import { useCaregiverPermissionsRead } from './use-caregiver-permissions';
import { useReplicaSync } from './use-replica-sync';
import { canTellScreenWidth, useWideScreen } from '../ui/use-wide-screen';
import { useWaitingPermissionRequests } from './waiting-requests';
import { useProfile } from './use-session';

// The More sheet and the question about unsent changes load when opened, the sync status (a popover, with
// its library) once the screen is drawn (ui/first-screen.ts): the shell is part of every signed-in first
// screen, whose JavaScript has a budget (tests/build/budget.mjs).
const loadMoreSheet = () => import('./more-sheet');
const loadUnsentChangesDialog = () => import('./unsent-changes-dialog');
const loadAccount = () => import('../../local/account');
// Each is a lazy part (ui/lazy-part.tsx): offline before the service worker kept them, the shell stands
// without them (the sync status as its placeholder) and asks again once online.
const MoreSheet = lazyPart(() => loadMoreSheet().then((module) => module.MoreSheet));
const SyncStatus = lazyPart(
  () => import('./sync-status').then((module) => module.SyncStatus),
  <SyncStatusPlaceholder />,
);
/** The beta policy's address (shell/policy-gate.tsx: the one signed-in screen until it is accepted). */
const POLICY_PATH = '/beta-user-policy';
// The beta policy gate loads when needed: only someone who has not accepted the policy yet sees it.
const PolicyGate = lazy(() => import('./policy-gate').then((module) => ({ default: module.PolicyGate })));
const UnsentChangesDialog = lazyPart(() =>
  loadUnsentChangesDialog().then((module) => module.UnsentChangesDialog),
);

/**
 * Fetches what the shell loads on demand once the first screen is up, while there is a connection: the
 * More sheet and signing out must open with no signal, also before the service worker has taken over.
 */
function usePrefetchShell(drawn: boolean): void {
  useEffect(() => {
    if (!drawn) return;
    for (const load of [loadMoreSheet, loadUnsentChangesDialog, loadAccount]) load().catch(() => undefined); // offline now: the first use loads it (from the service worker's cache)
  }, [drawn]);
}

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(DISPLAY_KEYS.sidebarCollapsed) === 'true';
  } catch {
    return false;
  }
}

function storeCollapsed(collapsed: boolean) {
  try {
    localStorage.setItem(DISPLAY_KEYS.sidebarCollapsed, String(collapsed));
  } catch {
    // Storage refused (a private mode): the choice holds until the page is closed.
  }
}

/**
 * The signed-in layout; it keeps the replica in sync. From 768 px: the role's sidebar (its collapsed state
 * remembered on this device), the header, and the page. Below: the header, the page, and a bottom tab bar
 * with a More sheet for the rest of the menu.
 */
export function AppLayout({ role, userId }: { role: Role; userId: string }) {
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const [moreOpen, setMoreOpen] = useState(false);
  const [askingAboutUnsent, setAskingAboutUnsent] = useState(false);
  const navigate = useNavigate();
  const phone = usePhoneNav(role);
  const waiting = useWaitingPermissionRequests(role === 'Patient');
  // Only the menu the screen shows is built (both where the width cannot be told; CSS hides one): the
  // hidden sidebar was a dozen links and icons built on every render of a phone's shell.
  const wide = useWideScreen();
  const sidebarShown = wide || !canTellScreenWidth();
  const tabBarShown = !wide || !canTellScreenWidth();
  const drawn = useScreenDrawn();
  useReplicaSync(userId, drawn);
  usePrefetchShell(drawn);
  const signOutNow = async () => {
    const { signOut } = await loadAccount();
    await signOut();
    await navigate({ to: '/login' });
  };
  // Signing out deletes the replica: with changes the server has not taken, the person decides first.
  const logout = async () => {
    if (hasUserDb() && (await unsentChangeCount(userDb())) > 0) setAskingAboutUnsent(true);
    else await signOutNow();
  };
  // Not known yet (undefined) counts as accepted: nearly everyone has, and their screen must not wait.
  const profile = useProfile();
  const policyPending = Boolean(profile && !profile.beta_policy_accepted_at);
  const onPolicyPage = useRouterState({ select: (state) => state.location.pathname === POLICY_PATH });
  const toggle = () =>
    setCollapsed((value) => {
      storeCollapsed(!value);
      return !value;
    });
  const unsentDialog = askingAboutUnsent ? (
    <Suspense fallback={null}>
      <UnsentChangesDialog onClose={() => setAskingAboutUnsent(false)} onSignOut={signOutNow} />
    </Suspense>
  ) : null;
  // On the policy itself, wait for the profile: drawn in the full layout and then again in the gate, its
  // ticked boxes would be lost.
  if (profile === undefined && onPolicyPage) return null;
  if (policyPending)
    return (
      <Suspense fallback={null}>
        <PolicyGate userId={userId} onSignOut={() => void logout()} dialogs={unsentDialog} />
      </Suspense>
    );
  return (
    <div className="flex h-dvh bg-canvas text-text">
      {sidebarShown ? (
        <Sidebar role={role} collapsed={collapsed} onToggle={toggle} onLogout={() => void logout()} />
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col">
        <Header
          role={role}
          syncStatus={
            drawn ? (
              <Suspense fallback={<SyncStatusPlaceholder />}>
                <SyncStatus />
              </Suspense>
            ) : (
              <SyncStatusPlaceholder />
            )
          }
        />
        <main
          id="main"
          tabIndex={-1}
          className="min-h-0 flex-1 overflow-x-hidden overflow-y-auto px-4 py-4 pr-[max(1rem,env(safe-area-inset-right))] pl-[max(1rem,env(safe-area-inset-left))] focus:outline-none md:p-6"
        >
          <div className="mx-auto w-full max-w-6xl">
            <Outlet />
          </div>
        </main>
        {phone && tabBarShown ? (
          <TabBar tabs={phone.tabs} moreOpen={moreOpen} onMore={() => setMoreOpen(true)} waiting={waiting} />
        ) : null}
      </div>
      {moreOpen && phone && tabBarShown ? (
        <Suspense fallback={null}>
          <MoreSheet
            open
            onClose={() => setMoreOpen(false)}
            items={phone.more}
            onLogout={() => void logout()}
            waiting={waiting}
          />
        </Suspense>
      ) : null}
      {unsentDialog}
    </div>
  );
}

/**
 * The role's menu split for a phone: the tab bar and, in the menu's order, the More sheet. A caregiver's
 * waits (null) until the permissions they hold are read: drawn before, its tabs moved as entries arrived.
 */
function usePhoneNav(role: Role) {
  const held = useCaregiverPermissionsRead();
  if (role === 'Patient') return splitForPhone(PATIENT_NAV);
  if (held === undefined) return null;
  const { tabs, more } = splitForPhone(caregiverNav(held));
  const items: MoreItem[] = [...more];
  // With no permission the menu shows a disabled entry where the submenu would be: after Patients.
  if (caregiverSubmenu(held).length === 0) items.splice(1, 0, 'no-caregiver-permissions');
  return { tabs, more: items };
}
