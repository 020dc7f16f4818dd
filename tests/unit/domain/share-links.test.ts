import { describe, expect, it } from 'vitest';
import {
  base64urlOfBytes,
  bytesOfBase64url,
  isDeviceSnapshot,
  readShareLink,
  shareLinkStatus,
  shareLinkUrl,
  type ShlinkPayload,
} from '../../../src/domain/share-links';

// The share link's text (SMART Health Links' `shlink:/` after the viewer's address), the shape of snapshot
// the server accepts, and a link's status.

const payload: ShlinkPayload = {
  url: 'https://kincare.example/api/shl/' + 'A'.repeat(43),
  key: 'k'.repeat(43),
  exp: 1_800_000_000,
  flag: 'P',
  label: 'Dr. Lee – cardiology ♥',
  v: 1,
};

const encodeHeader = (header: object) => base64urlOfBytes(new TextEncoder().encode(JSON.stringify(header)));

describe('the link text', () => {
  it('puts the payload after # so the key never reaches a server, and reads it back', () => {
    const url = shareLinkUrl('https://kincare.example/shl', payload);
    expect(url).toMatch(/^https:\/\/kincare\.example\/shl#shlink:\/[A-Za-z0-9_-]+$/);
    expect(new URL(url).search).toBe('');
    expect(readShareLink(url)).toEqual(payload);
    // Bare, as a camera app or another viewer passes it, and with spaces around it.
    expect(readShareLink(`  ${url.slice(url.indexOf('shlink:/'))} `)).toEqual(payload);
  });

  it('is null for what is not a whole link', () => {
    const url = shareLinkUrl('https://kincare.example/shl', payload);
    expect(readShareLink(url.slice(0, -10))).toBeNull();
    expect(readShareLink('https://kincare.example/shl')).toBeNull();
    expect(readShareLink('shlink:/%%%')).toBeNull();
    const plain = (value: object) =>
      `shlink:/${base64urlOfBytes(new TextEncoder().encode(JSON.stringify(value)))}`;
    expect(readShareLink(plain({ ...payload, key: 'short' }))).toBeNull();
    expect(readShareLink(plain({ ...payload, url: 'javascript:alert(1)' }))).toBeNull();
    expect(readShareLink(plain({ ...payload, flag: 'X' }))).toBeNull();
    expect(readShareLink(plain(['not', 'an', 'object']))).toBeNull();
  });

  it('turns bytes to base64url and back', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    const text = base64urlOfBytes(bytes);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(bytesOfBase64url(text)).toEqual(bytes);
    expect(() => bytesOfBase64url('a+b/')).toThrow();
  });
});

describe('a snapshot the server takes', () => {
  const iv = 'A'.repeat(16);
  const tag = 'C'.repeat(22);
  it('is a compact JWE for a key in the link (dir, A256GCM)', () => {
    expect(
      isDeviceSnapshot(
        `${encodeHeader({ alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json' })}..${iv}.abc.${tag}`,
      ),
    ).toBe(true);
  });
  it.each([
    ['a key the server would hold', `${encodeHeader({ alg: 'RSA-OAEP', enc: 'A256GCM' })}..${iv}.abc.${tag}`],
    ['another cipher', `${encodeHeader({ alg: 'dir', enc: 'A128CBC-HS256' })}..${iv}.abc.${tag}`],
    ['an encrypted key part', `${encodeHeader({ alg: 'dir', enc: 'A256GCM' })}.key.${iv}.abc.${tag}`],
    ['no ciphertext', `${encodeHeader({ alg: 'dir', enc: 'A256GCM' })}..${iv}..${tag}`],
    ['a short tag', `${encodeHeader({ alg: 'dir', enc: 'A256GCM' })}..${iv}.abc.CC`],
    ['four parts', `${encodeHeader({ alg: 'dir', enc: 'A256GCM' })}..${iv}.abc`],
    ['a header that is not JSON', `bm90IGpzb24..${iv}.abc.${tag}`],
    ['plain JSON', '{"resourceType":"Bundle"}'],
  ])('is not %s', (_case, jwe) => {
    expect(isDeviceSnapshot(jwe)).toBe(false);
  });
});

describe("a link's status", () => {
  const now = new Date('2026-11-29T12:00:00Z');
  const link = {
    expires_at: '2026-11-30T12:00:00Z',
    revoked_at: null,
    attempts_left: 10,
    has_passcode: true,
  };
  it('is open, expired, turned off or locked', () => {
    expect(shareLinkStatus(link, now)).toBe('active');
    expect(shareLinkStatus({ ...link, expires_at: '2026-11-29T12:00:00Z' }, now)).toBe('expired');
    expect(shareLinkStatus({ ...link, revoked_at: '2026-11-29T11:00:00Z' }, now)).toBe('revoked');
    expect(shareLinkStatus({ ...link, attempts_left: 0 }, now)).toBe('locked');
    // Without a passcode there are no tries to run out of.
    expect(shareLinkStatus({ ...link, attempts_left: 0, has_passcode: false }, now)).toBe('active');
  });
});
