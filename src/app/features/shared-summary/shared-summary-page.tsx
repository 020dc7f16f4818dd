import { useEffect, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { formatDate, formatDateTime } from '../../../domain/date-display';
import {
  manifestRequestSchema,
  readShareLink,
  SHARE_LINK_MESSAGES,
  ShareLinkError,
  type ShlinkPayload,
} from '../../../domain/share-links';
import type { SharedSummary } from '../../../domain/shared-summary';
import { Button } from '../../ui/button';
import { PasswordField, TextField } from '../../ui/fields';
import { Card } from '../../ui/page';
import { useOnline } from '../../ui/use-online';

// /shl#shlink:/...: a shared health summary, opened by whoever holds the link, with no account (src/domain/
// README.md, "Taking records to the doctor"). The link's part after '#' (with its key) never leaves this
// browser: the page asks the link's manifest for the encrypted copy, decrypts it here and shows it as text.
// The opener says who they are (the patient sees it), and gives the passcode when the link has one.

/** The address's part after '#', followed as it changes (another link pasted into the same tab). */
function useAddressHash(): string {
  return useSyncExternalStore(
    (changed) => {
      window.addEventListener('hashchange', changed);
      return () => window.removeEventListener('hashchange', changed);
    },
    () => window.location.hash,
  );
}

export function SharedSummaryPage() {
  const hash = useAddressHash();
  // A new link starts afresh: nothing of the last one's summary or answers stays on screen.
  return <SharedLink key={hash} link={readShareLink(hash)} />;
}

function SharedLink({ link }: { link: ShlinkPayload | null }) {
  const [summary, setSummary] = useState<SharedSummary | null>(null);
  useEffect(() => {
    document.title = summary
      ? `Health summary of ${summary.patientName} | Kincare`
      : 'Shared health summary | Kincare';
  }, [summary]);
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-8">
      <p className="text-sm font-semibold text-muted">Kincare: a shared health summary</p>
      {!link ? (
        <>
          <h1 className="mt-2 text-title text-text">This link cannot be opened</h1>
          <p role="alert" className="mt-3 text-text">
            {SHARE_LINK_MESSAGES.notALink}
          </p>
        </>
      ) : summary ? (
        <SummaryView summary={summary} />
      ) : (
        <OpenForm link={link} onOpened={setSummary} />
      )}
      <p className="mt-8 text-sm text-muted">
        <Link
          to="/privacy-policy"
          className="inline-flex min-h-11 items-center font-semibold text-primary-strong underline"
        >
          Privacy policy
        </Link>
      </p>
    </main>
  );
}

function OpenForm({ link, onOpened }: { link: ShlinkPayload; onOpened: (summary: SharedSummary) => void }) {
  const online = useOnline();
  const needsPasscode = link.flag?.includes('P') ?? false;
  const [recipient, setRecipient] = useState('');
  const [passcode, setPasscode] = useState('');
  const [errors, setErrors] = useState<{ recipient?: string; passcode?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [expired] = useState(() => link.exp !== undefined && link.exp * 1000 <= Date.now());

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = manifestRequestSchema.shape.recipient.safeParse(recipient);
    const found = {
      ...(checked.success ? {} : { recipient: checked.error.issues[0]?.message }),
      ...(needsPasscode && !passcode ? { passcode: SHARE_LINK_MESSAGES.passcodeNeeded } : {}),
    };
    setErrors(found);
    if (!checked.success || found.passcode) return;
    setBusy(true);
    setFailure(null);
    try {
      // The network client and the decryption load with the first tap, not with the page.
      const { openSharedSummary } = await import('../../../local/shared-summary');
      onOpened(await openSharedSummary(link, { recipient: checked.data, ...(passcode ? { passcode } : {}) }));
    } catch (error) {
      const message = error instanceof ShareLinkError ? error.message : SHARE_LINK_MESSAGES.openOffline;
      if (
        error instanceof ShareLinkError &&
        error.remainingAttempts !== undefined &&
        error.remainingAttempts > 0
      )
        setErrors({ passcode: message });
      else setFailure(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <h1 className="mt-2 text-title text-text">
        {link.label ? `Shared: ${link.label}` : 'A shared health summary'}
      </h1>
      <p className="mt-2 text-muted">
        Someone shared a read-only copy of their health records with you.
        {link.exp ? ` The link works until ${formatDateTime(new Date(link.exp * 1000).toISOString())}.` : ''}
      </p>
      {expired ? (
        <p role="alert" className="mt-3 text-text">
          {SHARE_LINK_MESSAGES.expired}
        </p>
      ) : null}
      <Card padding="page" className="mt-4">
        <form noValidate onSubmit={(event) => void submit(event)} aria-label="Open the summary">
          <TextField
            label="Your name"
            name="recipient"
            value={recipient}
            onChange={setRecipient}
            required
            autoComplete="name"
            placeholder="Dr. Lee, Mercy Clinic"
            hint="The person who shared this sees who opened it."
            error={errors.recipient}
          />
          {needsPasscode ? (
            <PasswordField
              label="Passcode"
              name="passcode"
              value={passcode}
              onChange={setPasscode}
              required
              autoComplete="off"
              error={errors.passcode}
              hint="The person who shared this link gave it to you."
            />
          ) : null}
          {!online ? (
            <p role="status" className="mb-3 text-sm text-text">
              {SHARE_LINK_MESSAGES.openOffline}
            </p>
          ) : null}
          {failure ? (
            <p role="alert" className="mb-3 text-sm text-danger">
              {failure}
            </p>
          ) : null}
          <Button type="submit" disabled={busy || !online}>
            {busy ? 'Opening...' : 'Open summary'}
          </Button>
        </form>
      </Card>
    </>
  );
}

function SummaryView({ summary }: { summary: SharedSummary }) {
  return (
    <>
      <h1 className="mt-2 text-title text-text">{summary.patientName || 'Health summary'}</h1>
      {summary.birthDate ? <p className="text-muted">Born {formatDate(summary.birthDate)}</p> : null}
      <p className="mt-2 text-sm text-text">
        A copy as it was{summary.madeAt ? ` on ${formatDateTime(summary.madeAt)}` : ''}
        {summary.madeBy ? `, made by ${summary.madeBy}` : ''}: it does not change when the records do. Results
        marked &ldquo;not yet checked&rdquo; were read from a report automatically and nobody has checked
        them.
      </p>
      {summary.sections.map((section) => (
        <Card key={section.title} padding="page" className="mt-4">
          <h2 className="text-lg font-semibold text-text">{section.title}</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-text">
            {section.items.map((item, index) => (
              <li key={`${index}-${item.text}`} className="break-words">
                {item.text}
                {item.details.length > 0 ? (
                  <ul className="mt-1 list-[circle] space-y-0.5 pl-5">
                    {item.details.map((detail, row) => (
                      <li key={`${row}-${detail}`}>{detail}</li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </Card>
      ))}
    </>
  );
}
