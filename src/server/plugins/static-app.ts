import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { chosenEncoding, firstScreenPageCache } from './first-screen-preloads';

// Serves the built PWA from the site root. Hashed assets never change, so they are cached for a year;
// index.html, sw.js and the manifest must be re-read on every visit or an update would never arrive.
// The build writes a brotli and a gzip copy beside each text file (vite.config.ts): the copy the browser
// accepts is sent as is (brotli first), with `Vary: Accept-Encoding` so that no cache hands one to a
// browser that asked for the other; files without a copy (small ones, images) go out as they are.
// Home's paths get index.html with the chunks Home renders with linked (first-screen-preloads.ts).
// Any other path without a file is a client route: it gets index.html (the router takes it from there),
// except under /api, where a path nothing answers is a 404 in the API's JSON shape: a client calling a
// mistyped endpoint must get an error, not a 200 with the app's HTML.

const NEVER_CACHE = new Set(['index.html', 'sw.js', 'manifest.webmanifest', 'registerSW.js']);
const COMPRESSED_COPY = /\.(br|gz)$/;

/** The Cache-Control of a file of the build, by the path of the file served (or of its compressed copy). */
export function cacheControlFor(distDir: string, filePath: string): string {
  const served = filePath.replace(COMPRESSED_COPY, '');
  const name = served.split(/[\\/]/).pop() ?? '';
  if (NEVER_CACHE.has(name)) return 'no-cache';
  if (served.startsWith(resolve(distDir, 'assets') + sep)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

export async function staticAppPlugin(
  app: FastifyInstance,
  options: { distDir: string; isApiPath: (url: string) => boolean },
) {
  const { distDir, isApiPath } = options;
  if (!existsSync(join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'no built PWA found: run `npm run build` (API only)');
    return;
  }
  // Home's paths get index.html with their chunks linked (first-screen-preloads.ts), made once per build.
  const firstScreens = firstScreenPageCache(distDir);
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    cacheControl: false,
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      reply.header('Cache-Control', cacheControlFor(distDir, filePath));
    },
  });
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (isApiPath(path)) return reply.status(404).send({ message: 'Not found' });
    const file = decodeURIComponent(path).replace(/^\/+/, '');
    if (file && !file.includes('..') && existsSync(join(distDir, file)) && !file.endsWith('/')) {
      return reply.sendFile(file);
    }
    if (/\.[a-z0-9]{2,5}$/i.test(file)) return reply.status(404).send({ message: 'Not found' });
    const firstScreen = firstScreens.get(path);
    if (firstScreen) {
      reply
        .header('Cache-Control', 'no-cache')
        .header('Vary', 'Accept-Encoding')
        .header('ETag', firstScreen.etag)
        .type('text/html; charset=UTF-8');
      if (request.headers['if-none-match'] === firstScreen.etag) return reply.status(304).send();
      const encoding = chosenEncoding(request.headers['accept-encoding']);
      if (encoding) reply.header('Content-Encoding', encoding);
      return reply.send(encoding ? firstScreen[encoding] : firstScreen.identity);
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
