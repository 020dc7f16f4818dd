// `npm run screenshots`: pictures of every screen at phone (390 x 844) and computer (1280 x 800) sizes,
// light and dark, written to tests/screenshots/ (the README points there), so that anyone can look at the
// app without running it; and the two the manifest shows in the browser's install dialog, written to
// public/screenshots/ (built into the app). Builds the app, then drives Debian's Chromium against the real
// server as the browser tests do (tests/e2e/screenshots.shot.ts).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('node', ['tests/e2e/ensure-chromium.mjs']);
run('npx', ['vite', 'build', '--logLevel', 'warn']);
run('npx', ['playwright', 'test', '-c', 'tests/e2e/screenshots.config.ts']);
// The install screenshots are part of the build: build again so that dist/ serves the new ones.
run('npx', ['vite', 'build', '--logLevel', 'warn']);
console.log('\nScreenshots written to tests/screenshots/ (install dialog: public/screenshots/).');
