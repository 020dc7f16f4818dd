import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// The sandbox process runs plain JavaScript: child.ts and what it imports of ours, bundled by esbuild
// into one file when the first sandbox starts (tens of milliseconds). Running the TypeScript through
// tsx instead made every process spend 10 s importing pdf.js, which tsx's loader reads through.
// Packages stay imports (`packages: 'external'`), so the bundle is written under node_modules/.cache,
// where Node finds them; its name is its content's hash, so servers and test workers that build it at
// once write the same file, and a changed child is never mistaken for an old one.

const HERE = dirname(fileURLToPath(import.meta.url));
const ENTRY = join(HERE, 'child.ts');
const CACHE_DIR = join(HERE, '../../../node_modules/.cache/kincare-sandbox');

let bundled: Promise<string> | null = null;

/** The path of the bundled child, built on the first call. */
export function childBundle(): Promise<string> {
  bundled ??= (async () => {
    const result = await build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.contents;
    if (!code) throw new Error('esbuild wrote no sandbox child');
    const name = `child-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
    const path = join(CACHE_DIR, name);
    if (!existsSync(path)) {
      mkdirSync(CACHE_DIR, { recursive: true });
      const partial = `${path}.${process.pid}.partial`;
      writeFileSync(partial, code);
      renameSync(partial, path); // whole or not at all, whoever renames last
    }
    return path;
  })();
  bundled.catch(() => {
    bundled = null; // a failed build is tried again by the next sandbox
  });
  return bundled;
}
