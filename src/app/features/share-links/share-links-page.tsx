import { useState, type FormEvent } from 'react';
import { Copy, Forward, Link2, ScanLine } from 'lucide-react';
import { formatDateTime } from '../../../domain/date-display';
import {
  SHARE_LINK_EXPIRIES,
  SHARE_LINK_LIMITS,
  SHARE_LINK_MESSAGES,
  shareLinkCreateSchema,
  shareLinkStatus,
  type SavedShareLink,
  type ShareLinkStatus,
} from '../../../domain/share-links';
import { hasUserDb, userDb } from '../../../local/db';
import { createShareLink, revokeShareLink } from '../../../local/share-links';
import { Badge, type BadgeTone } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { PasswordField, SelectField, TextField } from '../../ui/fields';
import { Card, PageTitle } from '../../ui/page';
import { useOnline } from '../../ui/use-online';
import { QrCode } from './qr-code';
import { useShareLinks } from './use-share-links';

// /share-links: the patient hands a read-only copy of their summary to a doctor by QR code or link
// (src/domain/README.md, "Taking records to the doctor"). The copy is encrypted on this device; the key is
// only in the link. Making or turning off a link needs the server, so offline the screen says so and shows
// the links as last saved.

const STATUS: Record<ShareLinkStatus, { word: string; tone: BadgeTone }> = {
  active: { word: 'Open', tone: 'success' },
  expired: { word: 'Expired', tone: 'neutral' },
  revoked: { word: 'Turned off', tone: 'neutral' },
  locked: { word: 'Locked: too many wrong passcodes', tone: 'warning' },
};

const DEFAULT_EXPIRY = String(SHARE_LINK_EXPIRIES[1].seconds);

export function ShareLinksPage({ patientId }: { patientId: string | null }) {
  const online = useOnline();
  const { links, fresh } = useShareLinks();
  const [made, setMade] = useState<SavedShareLink | null>(null);

  return (
    <>
      <PageTitle description="Give a doctor a read-only copy of your health summary by QR code or link. It is encrypted on this device: Kincare's server cannot read it.">
        Share by link
      </PageTitle>
      {!online ? (
        <p role="status" className="mb-4 rounded-control border border-warning bg-warning-soft p-3 text-text">
          {SHARE_LINK_MESSAGES.offline}
        </p>
      ) : null}
      {patientId ? <NewLinkForm patientId={patientId} online={online} onMade={setMade} /> : null}
      {made ? <LinkCode link={made} fresh /> : null}
      <section aria-labelledby="share-links-heading" className="mt-8">
        <h2 id="share-links-heading" className="text-lg font-semibold text-text">
          Your links
        </h2>
        {!fresh && links && links.length > 0 ? (
          <p className="mt-1 text-sm text-muted">
            As last seen on this device: may not show recent openings.
          </p>
        ) : null}
        {links === undefined ? (
          <p role="status" className="mt-2 text-muted">
            Loading your links...
          </p>
        ) : links.length === 0 ? (
          <p className="mt-2 text-muted">You have not shared a link yet.</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {links.map((link) => (
              <li key={link.id}>
                <LinkCard link={link} online={online} showingCode={made?.id === link.id} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function NewLinkForm(props: { patientId: string; online: boolean; onMade: (link: SavedShareLink) => void }) {
  const [label, setLabel] = useState('');
  const [expiry, setExpiry] = useState(DEFAULT_EXPIRY);
  const [passcode, setPasscode] = useState('');
  const [errors, setErrors] = useState<{ label?: string; passcode?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checkedLabel = shareLinkCreateSchema.shape.label.safeParse(label);
    const checkedPasscode = shareLinkCreateSchema.shape.passcode.safeParse(passcode || undefined);
    const found = {
      ...(checkedLabel.success ? {} : { label: checkedLabel.error.issues[0]?.message }),
      ...(checkedPasscode.success ? {} : { passcode: checkedPasscode.error.issues[0]?.message }),
    };
    setErrors(found);
    if (!checkedLabel.success || !checkedPasscode.success || !hasUserDb()) return;
    setBusy(true);
    setFailure(null);
    try {
      const link = await createShareLink(userDb(), {
        patientId: props.patientId,
        label: checkedLabel.data,
        expiresInSeconds: Number(expiry),
        ...(checkedPasscode.data ? { passcode: checkedPasscode.data } : {}),
      });
      props.onMade(link);
      setLabel('');
      setPasscode('');
    } catch (error) {
      setFailure(error instanceof Error ? error.message : SHARE_LINK_MESSAGES.offline);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card padding="page">
      <form noValidate onSubmit={(event) => void submit(event)} aria-label="New share link">
        <h2 className="mb-3 text-lg font-semibold text-text">New link</h2>
        <TextField
          label="Who is it for?"
          name="label"
          value={label}
          onChange={setLabel}
          required
          error={errors.label}
          placeholder="Dr. Lee, Mercy Clinic"
          hint="Shown to them, and in your list of links."
        />
        <SelectField
          label="Works for"
          name="expiry"
          value={expiry}
          onChange={setExpiry}
          options={SHARE_LINK_EXPIRIES.map(({ seconds, label: words }) => ({
            value: String(seconds),
            label: words,
          }))}
        />
        <PasswordField
          label="Passcode (optional)"
          name="passcode"
          value={passcode}
          onChange={setPasscode}
          error={errors.passcode}
          autoComplete="off"
          hint={`Tell it to them separately. After ${SHARE_LINK_LIMITS.attempts} wrong tries the link stops working.`}
        />
        {failure ? (
          <p role="alert" className="mb-3 text-sm text-danger">
            {failure}
          </p>
        ) : null}
        <Button type="submit" disabled={busy || !props.online}>
          <Link2 aria-hidden="true" className="h-5 w-5" />
          {busy ? 'Making the link...' : 'Create link'}
        </Button>
        <p className="mt-3 text-sm text-muted">
          The link holds a copy of your summary as it is now (medicines, allergies, conditions, results,
          vitals, doctors). Later changes are not in it.
        </p>
      </form>
    </Card>
  );
}

/** The code and the link to hand over, with Copy and Share. */
function LinkCode({ link, fresh = false }: { link: SavedShareLink; fresh?: boolean }) {
  const [said, setSaid] = useState('');
  if (!link.url) return null;
  const url = link.url;
  const canShare = typeof navigator.share === 'function';
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setSaid('Link copied.');
    } catch {
      setSaid('Could not copy: select the link and copy it yourself.');
    }
  }
  async function share() {
    try {
      await navigator.share({ title: `Health summary: ${link.label}`, url });
    } catch {
      // Closing the share sheet is not a failure; the link stays on screen.
    }
  }
  return (
    <Card padding="page" className={fresh ? 'mt-4' : 'mt-3'} aria-label={`Code and link for ${link.label}`}>
      {fresh ? <h2 className="text-lg font-semibold text-text">Your link for {link.label}</h2> : null}
      <p className="mt-1 text-muted">
        Let them scan the code with their phone camera, or send them the link.
        {link.has_passcode ? ' They also need the passcode.' : ''} Works until{' '}
        {formatDateTime(link.expires_at)}.
      </p>
      <div className="mt-3 flex justify-center">
        <QrCode text={url} label={`QR code of the link for ${link.label}`} />
      </div>
      <label className="mt-3 block text-small font-medium text-text" htmlFor={`share-url-${link.id}`}>
        Link
      </label>
      <input
        id={`share-url-${link.id}`}
        readOnly
        value={url}
        onFocus={(event) => event.target.select()}
        className="mt-1 block min-h-11 w-full min-w-0 rounded-control border border-border-strong bg-surface px-3 py-2 text-base text-text"
      />
      <div className="mt-3 flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => void copy()}>
          <Copy aria-hidden="true" className="h-5 w-5" />
          Copy link
        </Button>
        {canShare ? (
          <Button variant="secondary" onClick={() => void share()}>
            <Forward aria-hidden="true" className="h-5 w-5" />
            Share link
          </Button>
        ) : null}
      </div>
      <p role="status" className="mt-2 text-sm text-text">
        {said}
      </p>
    </Card>
  );
}

function LinkCard({
  link,
  online,
  showingCode,
}: {
  link: SavedShareLink;
  online: boolean;
  showingCode: boolean;
}) {
  const status = shareLinkStatus(link, new Date());
  const [codeShown, setCodeShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  async function turnOff() {
    setBusy(true);
    setFailure(null);
    try {
      if (hasUserDb()) await revokeShareLink(userDb(), link.id);
      setConfirming(false);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : SHARE_LINK_MESSAGES.offline);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="min-w-0 font-semibold break-words text-text">{link.label}</h3>
        <Badge tone={STATUS[status].tone}>{STATUS[status].word}</Badge>
        {link.has_passcode ? <Badge>Passcode</Badge> : null}
      </div>
      <p className="mt-1 text-sm text-muted">
        Made {formatDateTime(link.created_at)};{' '}
        {status === 'revoked' && link.revoked_at
          ? `turned off ${formatDateTime(link.revoked_at)}`
          : `${status === 'expired' ? 'expired' : 'works until'} ${formatDateTime(link.expires_at)}`}
        .
      </p>
      {link.opens.length === 0 ? (
        <p className="mt-2 text-sm text-text">Not opened yet.</p>
      ) : (
        <div className="mt-2">
          <p className="text-sm font-medium text-text">
            Opened {link.opens.length === 1 ? 'once' : `${link.opens.length} times`}:
          </p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-text">
            {link.opens.map((open) => (
              <li key={`${open.at}-${open.recipient}`} className="break-words">
                {formatDateTime(open.at)} by {open.recipient}
              </li>
            ))}
          </ul>
        </div>
      )}
      {status === 'active' ? (
        <div className="mt-3 flex flex-wrap gap-3">
          {link.url && !showingCode ? (
            <Button
              variant="secondary"
              onClick={() => setCodeShown((shown) => !shown)}
              aria-expanded={codeShown}
            >
              <ScanLine aria-hidden="true" className="h-5 w-5" />
              {codeShown ? 'Hide code' : 'Show code'}
            </Button>
          ) : null}
          <Button variant="danger" onClick={() => setConfirming(true)} disabled={!online || busy}>
            Turn off
          </Button>
        </div>
      ) : null}
      {status === 'active' && !link.url ? (
        <p className="mt-2 text-sm text-muted">Its code is on the device that made it.</p>
      ) : null}
      {failure ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {failure}
        </p>
      ) : null}
      {codeShown && status === 'active' ? <LinkCode link={link} /> : null}
      <ConfirmDialog
        open={confirming}
        title="Turn off this link?"
        message={`Nobody will be able to open "${link.label}" again. Kincare deletes its copy of your summary.`}
        confirmLabel="Turn off"
        busy={busy}
        onConfirm={() => void turnOff()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
