import { useEffect, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import toast from 'react-hot-toast';
import type { Session as SignedInSession } from '../../../domain/auth';
import { formatDateTime } from '../../../domain/date-display';
import { endOtherSession, listSessions, signOutEverywhere } from '../../../local/account';
import { hasUserDb, unsentChangeCount, userDb } from '../../../local/db';
import { errorMessages } from '../../../local/http-errors';
import { syncNow } from '../../../local/sync-trigger';
import { Button } from '../../ui/button';
import { DialogFrame } from '../../ui/confirm-dialog';
import { FormAlert } from '../../ui/form-alert';
import { useOnline } from '../../ui/use-online';

// The person's recent sign-ins, from the server (they are not synced: a list from a device that is offline
// would be out of date exactly when it matters): when, which device, from which address. Any other session
// can be ended; 'Sign out of all devices' ends every one, this one too.

export const OFFLINE_SIGN_INS = 'Connect to the internet to see your signed-in devices.';

type Listing =
  { kind: 'loading' } | { kind: 'loaded'; sessions: SignedInSession[] } | { kind: 'failed'; message: string };

export function SignIns() {
  const online = useOnline();
  const navigate = useNavigate();
  const [listing, setListing] = useState<Listing>({ kind: 'loading' });
  const [reload, setReload] = useState(0);
  const [ending, setEnding] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmingAll, setConfirmingAll] = useState<{ unsent: number } | null>(null);

  useEffect(() => {
    if (!online) return;
    let live = true;
    listSessions()
      .then((sessions) => live && setListing({ kind: 'loaded', sessions: newestFirst(sessions) }))
      .catch(
        (error: unknown) => live && setListing({ kind: 'failed', message: errorMessages(error).join(' ') }),
      );
    return () => {
      live = false;
    };
  }, [online, reload]);

  const endOne = async (session: SignedInSession) => {
    setEnding(session.id);
    setFailure(null);
    try {
      toast.success(await endOtherSession(session.id));
      setReload((count) => count + 1);
    } catch (error) {
      setFailure(errorMessages(error).join(' '));
    } finally {
      setEnding(null);
    }
  };

  const askAboutAll = () => {
    setFailure(null);
    // The question opens at once; how many changes are unsent is added when the device's table answers
    // (a long sync transaction can hold it for seconds, and the tap must not look ignored meanwhile).
    setConfirmingAll({ unsent: 0 });
    if (!hasUserDb()) return;
    void unsentChangeCount(userDb()).then(
      (unsent) => setConfirmingAll((asking) => (asking ? { unsent } : asking)),
      () => undefined,
    );
  };

  if (!online) return <p className="text-slate-800">{OFFLINE_SIGN_INS}</p>;

  return (
    <>
      {listing.kind === 'loading' ? (
        <p role="status" className="text-slate-700">
          Loading your signed-in devices...
        </p>
      ) : listing.kind === 'failed' ? (
        <FormAlert message={listing.message} />
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Signed-in devices">
          {listing.sessions.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              ending={ending === session.id}
              onEnd={() => void endOne(session)}
            />
          ))}
        </ul>
      )}
      <FormAlert message={failure} className="mt-4" />
      <div className="mt-4">
        <Button variant="danger" className="min-h-11" onClick={askAboutAll}>
          Sign out of all devices
        </Button>
      </div>
      {confirmingAll ? (
        <SignOutEverywhereDialog
          unsent={confirmingAll.unsent}
          onClose={() => setConfirmingAll(null)}
          onDone={() => void navigate({ to: '/login', replace: true })}
        />
      ) : null}
    </>
  );
}

function SessionRow({
  session,
  ending,
  onEnd,
}: {
  session: SignedInSession;
  ending: boolean;
  onEnd: () => void;
}) {
  const device = deviceSummary(session.user_agent);
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">
          {device}
          {session.current ? (
            <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-900">
              This device
            </span>
          ) : null}
        </p>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-700">
          <dt>Signed in</dt>
          <dd>{formatDateTime(session.created_at) || 'Unknown'}</dd>
          <dt>Last active</dt>
          <dd>{formatDateTime(session.last_seen_at) || 'Unknown'}</dd>
          <dt>Address</dt>
          <dd className="[overflow-wrap:anywhere]">{session.address || 'Unknown'}</dd>
        </dl>
      </div>
      {session.current ? null : (
        <Button
          variant="secondary"
          className="min-h-11 shrink-0 self-start sm:self-center"
          disabled={ending}
          aria-label={`End session: ${device}, last active ${formatDateTime(session.last_seen_at)}`}
          onClick={onEnd}
        >
          {ending ? 'Ending...' : 'End session'}
        </Button>
      )}
    </li>
  );
}

function SignOutEverywhereDialog({
  unsent,
  onClose,
  onDone,
}: {
  unsent: number;
  onClose: () => void;
  onDone: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setProblem(null);
    try {
      // What this device still has to send goes out first while the session lasts; what cannot stays on
      // the device until this person signs in again.
      // Counted again here: the question may have opened before the count shown in it arrived.
      const pending = hasUserDb() ? await unsentChangeCount(userDb()) : unsent;
      if (pending > 0) await syncNow();
      await signOutEverywhere();
      toast.success('Signed out of all devices.');
      onDone();
    } catch (error) {
      setProblem(errorMessages(error).join(' '));
      setBusy(false);
    }
  };
  const changes = `${unsent} unsent ${unsent === 1 ? 'change' : 'changes'}`;
  return (
    <DialogFrame
      open
      title="Sign out of all devices?"
      message={`Every device signed in to your account will be signed out, this one too. You will need to sign in again.${
        unsent > 0
          ? ` This device has ${changes}: ${unsent === 1 ? 'it is' : 'they are'} sent first if possible, and what cannot be sent stays on this device until you sign in again.`
          : ''
      }`}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
            {busy ? 'Signing out...' : 'Sign out of all devices'}
          </Button>
        </>
      }
    >
      {problem ? (
        <p role="alert" className="mt-4 rounded bg-red-50 p-3 text-sm text-red-800">
          {problem}
        </p>
      ) : null}
    </DialogFrame>
  );
}

function newestFirst(sessions: SignedInSession[]): SignedInSession[] {
  // This device first, then the others by when they were last active.
  return [...sessions].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.last_seen_at.localeCompare(a.last_seen_at),
  );
}

const BROWSERS: [RegExp, string][] = [
  [/\bEdgA?\/|\bEdgiOS\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(?:HeadlessChrome|Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** A short, readable name for a browser's user agent, e.g. 'Chrome on Android'. */
export function deviceSummary(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  const either = browser ?? system;
  if (either) return either;
  // Not a browser (an app or a script): its own first name, e.g. 'curl', kept short.
  const product = /^([A-Za-z][A-Za-z0-9 ._-]{0,29})\//.exec(userAgent.trim())?.[1];
  return product && product !== 'Mozilla' ? product : 'Unknown device';
}
