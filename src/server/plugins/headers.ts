import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

// Headers that helmet does not set the way a health app needs them:
// - every /api answer (errors and 404s too) is `Cache-Control: no-store`: no copy of health data in a
//   browser's or a shared proxy's cache, where the next person at the computer could read it;
// - `Permissions-Policy` allows the page only what it uses: geolocation for the weather greeting and the
//   microphone for voice input, each for this origin only; everything else is off,
//   including the camera (photos are taken through the file picker, which the policy does not govern);
// - `Strict-Transport-Security` only on answers to HTTPS requests (directly, or through a trusted proxy
//   that says so in X-Forwarded-Proto): on plain HTTP it is meaningless, and on a LAN install that is
//   reached by plain HTTP it would lock browsers out of the host for a year;
// - with files in an S3-compatible store (S3_BUCKET), the page's Content-Security-Policy (helmet's, set
//   for every answer in app.ts) also allows the store's origin for images: a profile photo or a lab
//   report's image is an <img> whose signed link points there. Nothing else is needed: files are opened
//   in a new tab (a navigation, which the page's CSP does not govern), never fetched or framed by the app,
//   and object-src stays 'none'.

export const PERMISSIONS_POLICY = [
  'geolocation=(self)',
  'microphone=(self)',
  'camera=()',
  'accelerometer=()',
  'autoplay=()',
  'bluetooth=()',
  'browsing-topics=()',
  'display-capture=()',
  'encrypted-media=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

export const HSTS = 'max-age=31536000; includeSubDomains';

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/**
 * The directives of the page's CSP that must reach the file store's signed links: images are shown from
 * them, and the lab report preview's pdf.js fetches a PDF (the bucket must allow the app's origin by CORS).
 */
const FILE_LINK_DIRECTIVES = ['img-src', 'connect-src'];

/** `policy` with `origin` added to each of FILE_LINK_DIRECTIVES it has (the others left as they are). */
export function allowingFileLinks(policy: string, origin: string): string {
  return policy
    .split(';')
    .map((directive) => {
      const name = directive.trim().split(/\s+/)[0] ?? '';
      return FILE_LINK_DIRECTIVES.includes(name) ? `${directive.trimEnd()} ${origin}` : directive;
    })
    .join(';');
}

export const headersPlugin = fp(async (app: FastifyInstance) => {
  const fileOrigin = app.config.s3
    ? await (await import('../storage/s3-storage')).s3LinkOrigin(app.config.s3)
    : null;
  // The page's policy is the same on every answer (helmet's table): worked out again only if it changes.
  let memo = { policy: '', withFiles: '' };
  app.addHook('onSend', async (request, reply, payload) => {
    const policy = reply.getHeader('content-security-policy');
    if (fileOrigin && typeof policy === 'string') {
      if (memo.policy !== policy) memo = { policy, withFiles: allowingFileLinks(policy, fileOrigin) };
      reply.header('Content-Security-Policy', memo.withFiles);
    }
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    if (isHttps(request)) reply.header('Strict-Transport-Security', HSTS);
    if (isApiPath(request.url)) reply.header('Cache-Control', 'no-store');
    return payload;
  });
});
