import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

// Headers that helmet does not set the way a health app needs them:
// - every /api answer (errors and 404s too) is `Cache-Control: no-store`: no copy of health data in a
//   browser's or a shared proxy's cache, where the next person at the computer could read it;
// - `Permissions-Policy` allows the page only what it uses: geolocation for the weather greeting and the
//   microphone for voice input (SPEC section 2), each for this origin only; everything else is off,
//   including the camera (photos are taken through the file picker, which the policy does not govern);
// - `Strict-Transport-Security` only on answers to HTTPS requests (directly, or through a trusted proxy
//   that says so in X-Forwarded-Proto): on plain HTTP it is meaningless, and on a LAN install that is
//   reached by plain HTTP it would lock browsers out of the host for a year.

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

export const headersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    if (isHttps(request)) reply.header('Strict-Transport-Security', HSTS);
    if (isApiPath(request.url)) reply.header('Cache-Control', 'no-store');
    return payload;
  });
});
