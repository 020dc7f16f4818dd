// Browser tests drive Debian's Chromium (never a downloaded browser: this network reaches only the
// package registries): the headless shell for most of them and the full browser for the rest and the
// benchmarks (chromium.ts says which and why). Installs what is missing when we can (root with
// apt-get), otherwise says how.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const HEADLESS_SHELL_PATH =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH || '/usr/bin/chromium-headless-shell';

/** Each browser the tests need, with the Debian package that provides it at its default path. */
const needed = [
  { path: CHROMIUM_PATH, packageName: 'chromium' },
  { path: HEADLESS_SHELL_PATH, packageName: 'chromium-headless-shell' },
];
const missing = needed.filter(({ path }) => !existsSync(path));

if (missing.length > 0) {
  const packages = missing.map(({ packageName }) => packageName);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    console.error(
      `Missing: ${missing.map(({ path }) => path).join(', ')}. Install with:\n` +
        `  sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}\n` +
        'or point CHROMIUM_PATH / CHROMIUM_HEADLESS_SHELL_PATH at the binaries, then run npm test again.',
    );
    process.exit(1);
  }
  console.log(`Installing Debian's ${packages.join(' and ')} with apt-get...`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const still = missing.filter(({ path }) => !existsSync(path));
  if (still.length > 0) {
    console.error(`apt-get finished but ${still.map(({ path }) => path).join(', ')} is still missing.`);
    process.exit(1);
  }
}
