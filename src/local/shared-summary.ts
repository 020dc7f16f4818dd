import {
  bytesOfBase64url,
  manifestRefusalSchema,
  manifestSchema,
  SHARE_LINK_MESSAGES,
  ShareLinkError,
  type ShlinkPayload,
} from '../domain/share-links';
import { readSharedSummary, type SharedSummary } from '../domain/shared-summary';
import { http } from './http';
import { errorMessages, statusOf } from './http-errors';

// Opening a share link, as its viewer (the public /shl screen) does (src/domain/README.md, "Taking records
// to the doctor"): the link's manifest is asked without anyone's token (the link is the capability), and the
// snapshot it answers is decrypted here with the key from the link, which never left this browser.
// Apart from share-links.ts (making links), so a stranger's browser loads nothing of the patient's side.

const online = () => typeof navigator === 'undefined' || navigator.onLine;

/** A snapshot decrypted with the link's key; throws ShareLinkError when the key does not fit. */
export async function openSnapshot(jwe: string, key: Uint8Array): Promise<unknown> {
  const { compactDecrypt } = await import('jose');
  try {
    const { plaintext } = await compactDecrypt(jwe, key);
    return JSON.parse(new TextDecoder().decode(plaintext));
  } catch {
    throw new ShareLinkError(SHARE_LINK_MESSAGES.unreadable);
  }
}

/**
 * Opens a link as its viewer does: asks its manifest (without anyone's token: the link is the capability),
 * then decrypts the snapshot with the link's key. Refusals come back as ShareLinkError in the server's words.
 */
export async function openSharedSummary(
  link: ShlinkPayload,
  request: { recipient: string; passcode?: string },
  options: { origin?: string } = {},
): Promise<SharedSummary> {
  if (!online()) throw new ShareLinkError(SHARE_LINK_MESSAGES.openOffline);
  // This viewer asks only its own server (which is all its content policy lets it reach).
  if (new URL(link.url).origin !== (options.origin ?? location.origin))
    throw new ShareLinkError(SHARE_LINK_MESSAGES.otherServer);
  let embedded: string | undefined;
  try {
    const response = await http.post(
      link.url,
      { recipient: request.recipient, ...(request.passcode ? { passcode: request.passcode } : {}) },
      { quiet: true, anonymous: true, baseURL: '' },
    );
    embedded = manifestSchema.parse(response.data).files[0]?.embedded;
  } catch (error) {
    const body = manifestRefusalSchema.safeParse(
      (error as { response?: { data?: unknown } } | null)?.response?.data,
    );
    if (body.success) throw new ShareLinkError(body.data.message, body.data.remainingAttempts);
    throw new ShareLinkError(
      statusOf(error) === undefined && !online()
        ? SHARE_LINK_MESSAGES.openOffline
        : (errorMessages(error)[0] ?? SHARE_LINK_MESSAGES.openOffline),
    );
  }
  if (!embedded) throw new ShareLinkError(SHARE_LINK_MESSAGES.unreadable);
  const summary = readSharedSummary(await openSnapshot(embedded, bytesOfBase64url(link.key)));
  if (!summary) throw new ShareLinkError(SHARE_LINK_MESSAGES.unreadable);
  return summary;
}
