// `npm run test:stryker`: Stryker's mutation score of the sync modules (settings in stryker.config.mjs), a
// figure for the README and not a gate. It goes through Stryker's API because StrykerJS 10's command line
// refuses to start on Node 20 (its engines field asks for 22), which is what these machines and CI run;
// the API itself runs on Node 20. Prints the score over all mutants and over those the tests reach.
//   node tests/mutants/stryker.mjs [--mutate <glob,glob>] [--tests <glob,glob>]
import config from './stryker.config.mjs';

// The package's entry re-exports the command line, whose first statement is the version check: the class
// is loaded from its own file instead.
const { Stryker } = await import(
  new URL('../../node_modules/@stryker-mutator/core/dist/src/stryker.js', import.meta.url).href
);

const args = process.argv.slice(2);
const listArg = (name) => (args.includes(name) ? args[args.indexOf(name) + 1]?.split(',') : undefined);
const mutate = listArg('--mutate');
const testFiles = listArg('--tests');
const options = { ...config, ...(mutate ? { mutate } : {}), ...(testFiles ? { testFiles } : {}) };

const started = Date.now();
const results = await new Stryker(options).runMutationTest();
const count = (...statuses) => results.filter((result) => statuses.includes(result.status)).length;
const detected = count('Killed', 'Timeout');
const undetected = count('Survived', 'NoCoverage');
const covered = detected + count('Survived');
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const percent = (part, whole) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`);
console.log(
  `\nStryker over ${options.mutate.join(', ')}: ${results.length} mutants, ${detected} killed, ${count('Survived')} survived, ${count('NoCoverage')} not reached by the tests, ${count('CompileError', 'RuntimeError', 'Ignored')} not counted; ${minutes} min`,
);
console.log(
  `mutation score ${percent(detected, detected + undetected)} (of mutants the tests reach: ${percent(detected, covered)})`,
);
