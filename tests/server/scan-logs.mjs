// Looks through the server logs of a whole test run for what must never be in a log: e-mail addresses,
// tokens (JWTs, "Bearer ..."), signed file links' signatures and password hashes. The test helpers write
// every test app's log to KINCARE_TEST_LOG_DIR when it is set (tests/server/helpers.ts); .ci/run sets it,
// runs the tests, then runs this.
//
//   node tests/server/scan-logs.mjs [dir]      (dir defaults to $KINCARE_TEST_LOG_DIR)
//
// Prints each offending line (file, line number, what was found) and exits 1 when there are any; exits 2
// when there are no logs to scan, since a scan of nothing proves nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const PATTERNS = [
  ['e-mail address', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/],
  ['JSON Web Token', /eyJ[A-Za-z0-9_-]{10,}/],
  ['bearer token', /Bearer\s/i],
  ['file link signature', /signature=(?!\[redacted\])[A-Za-z0-9_-]/i],
  ['password hash', /\$argon2(?:id|i|d)\$/],
];
const MAX_REPORTED = 50;

const dir = process.argv[2] ?? process.env.KINCARE_TEST_LOG_DIR;
if (!dir) {
  console.error('scan-logs: give the log folder as an argument or in KINCARE_TEST_LOG_DIR.');
  process.exit(2);
}

function logFiles(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? logFiles(path) : name.endsWith('.log') ? [path] : [];
  });
}

let files;
try {
  files = logFiles(dir);
} catch (error) {
  console.error(`scan-logs: cannot read ${dir}: ${error.message}`);
  process.exit(2);
}
if (files.length === 0) {
  console.error(`scan-logs: no .log files in ${dir}: nothing was scanned.`);
  process.exit(2);
}

let lines = 0;
const offenders = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  text.split('\n').forEach((line, index) => {
    if (!line) return;
    lines += 1;
    for (const [what, pattern] of PATTERNS) {
      const match = pattern.exec(line);
      if (match)
        offenders.push({
          file,
          line: index + 1,
          what,
          excerpt: line.slice(Math.max(0, match.index - 60), match.index + 80),
        });
    }
  });
}

if (offenders.length === 0) {
  console.log(
    `scan-logs: ${lines} log lines in ${files.length} files hold no e-mail, token, signature or password hash.`,
  );
  process.exit(0);
}
console.error(`scan-logs: ${offenders.length} log lines hold what a log must not:`);
for (const offender of offenders.slice(0, MAX_REPORTED)) {
  console.error(`  ${offender.file}:${offender.line}: ${offender.what}: …${offender.excerpt}…`);
}
if (offenders.length > MAX_REPORTED) console.error(`  … and ${offenders.length - MAX_REPORTED} more.`);
process.exit(1);
