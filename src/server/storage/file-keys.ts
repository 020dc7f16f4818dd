import { randomBytes } from 'node:crypto';
import { DETECTABLE_FILE_TYPES, type DetectedFileType } from '../services/file-type';

// What every file store shares: the one interface, the key format and the rule for how a file is shown.
// A key is `<kind>/<owner>/<32 random hex>.<ext>`: the owner is the patient the file belongs to (a profile
// photo's: its person), as 32 hex digits, so each patient's files sit in a folder of their own (removable
// and countable together, in a bucket too); the content type lives in the extension, so a key alone says
// what it is and no sidecar can drift from its file; and the random part makes it unguessable (files are
// reached through the records that hold their keys, never by listing a patient's folder). Keys written
// before files had owners (`<kind>/<32 random hex>.<ext>`) stay valid.

export const FILE_KINDS = ['profile', 'lab', 'prescription', 'appointment'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export type StoredContentType = DetectedFileType;

export type FileStorage = {
  /** `owner`: the patient (or, for a profile photo, the person) the file belongs to: a UUID. */
  put: (
    kind: FileKind,
    bytes: Buffer,
    contentType: StoredContentType,
    owner: string,
  ) => Promise<{ key: string }>;
  read: (key: string) => Promise<{ bytes: Buffer; contentType: StoredContentType } | null>;
  /**
   * A link that serves the file until `ttlSeconds` from now: relative (`/api/files/...`) on disk, the
   * object store's presigned address with S3. Rejects a key outside the key format.
   */
  signedUrl: (key: string, ttlSeconds?: number) => Promise<string>;
  remove: (key: string) => Promise<void>;
  /** Every stored file of a kind with when it was last written (the orphan sweep looks for leftovers). */
  list: (kind: FileKind) => Promise<{ key: string; modifiedAt: Date }[]>;
};

export const DEFAULT_LINK_TTL_SECONDS = 900;

const EXTENSIONS = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
} as const satisfies Record<StoredContentType, string>;

/** What the app shows in the page; everything else is handed to the browser as a download. */
const INLINE_TYPES: ReadonlySet<StoredContentType> = new Set(['image/png', 'image/jpeg', 'image/webp']);

// A strict whitelist rather than path cleaning: a key that matches cannot contain '..', '/' beyond the
// separators, or anything else that would leave the kind's folder.
const KEY_PATTERN = new RegExp(
  `^(${FILE_KINDS.join('|')})/(?:([0-9a-f]{32})/)?([0-9a-f]{32})\\.(${Object.values(EXTENSIONS).join('|')})$`,
);

/** The owner's folder name: the UUID's 32 hex digits, lower case (anything else is refused). */
export function ownerFolder(owner: string): string {
  const folder = owner.replaceAll('-', '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(folder)) throw new Error(`not an owner id: ${owner}`);
  return folder;
}

export function isValidFileKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function newFileKey(kind: FileKind, contentType: StoredContentType, owner: string): string {
  return `${kind}/${ownerFolder(owner)}/${randomBytes(16).toString('hex')}.${EXTENSIONS[contentType]}`;
}

/** The content type a valid key stands for; null for anything outside the key format. */
export function contentTypeOfKey(key: string): StoredContentType | null {
  const extension = KEY_PATTERN.exec(key)?.[4];
  if (!extension) return null;
  return DETECTABLE_FILE_TYPES.find((type) => EXTENSIONS[type] === extension) ?? null;
}

/** Images open in the page (`inline`); anything else is a download named after its kind. */
export function contentDispositionOf(key: string, contentType: StoredContentType): string {
  return INLINE_TYPES.has(contentType)
    ? 'inline'
    : `attachment; filename="kincare-${key.split('/')[0]}.${EXTENSIONS[contentType]}"`;
}
