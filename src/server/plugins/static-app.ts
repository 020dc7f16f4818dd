import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

// Serves the built PWA from the site root. Hashed assets never change, so they are cached for a year;
// index.html, sw.js and the manifest must be re-read on every visit or an update would never arrive.
// Any other path without a file is a client route: it gets index.html (the router takes it from there).

const NEVER_CACHE = new Set(['index.html', 'sw.js', 'manifest.webmanifest', 'registerSW.js']);

export async function staticAppPlugin(app: FastifyInstance, options: { distDir: string }) {
  const { distDir } = options;
  if (!existsSync(join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'no built PWA found: run `npm run build` (API only)');
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      const name = filePath.split(/[\\/]/).pop() ?? '';
      if (NEVER_CACHE.has(name)) reply.header('Cache-Control', 'no-cache');
      else if (filePath.includes(`${join(distDir, 'assets')}`))
        reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      else reply.header('Cache-Control', 'public, max-age=3600');
    },
  });
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const file = decodeURIComponent(path).replace(/^\/+/, '');
    if (file && !file.includes('..') && existsSync(join(distDir, file)) && !file.endsWith('/')) {
      return reply.sendFile(file);
    }
    if (/\.[a-z0-9]{2,5}$/i.test(file)) return reply.status(404).send({ message: 'Not found' });
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
