import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { SAMPLE_SEED, SAMPLE_VARIETY_ROWS, sampleNppesLines } from './sample-data';

// Writes the sample directory (sample-data.ts) to a file in the NPPES format: to read what a fresh install
// loads, or, with more rows, a registry-sized file for the import's benchmark. The server does not need
// the file: it makes the same rows in memory at first start (sample.ts).
//
//   tsx src/server/directory/generate-sample.ts --out /tmp/nppes-sample.csv
//   tsx src/server/directory/generate-sample.ts --rows 1000000 --out /tmp/nppes-1m.csv
//
// --rows is the number of variety rows, beyond the coverage rows every sample has. The same arguments give
// the same file, byte for byte. Rows are written as they are made: memory does not grow with the file.

async function generate(rows: number, out: string, seed: number): Promise<void> {
  const stream = createWriteStream(out, { encoding: 'utf8' });
  let lines = 0;
  for (const line of sampleNppesLines({ rows, seed })) {
    lines += 1;
    if (!stream.write(line)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
  console.log(`Wrote ${(lines - 1).toLocaleString('en-US')} rows to ${out}`);
}

function argumentsOf(argv: string[]): { rows: number; out: string; seed: number } {
  const options = { rows: SAMPLE_VARIETY_ROWS, out: '', seed: SAMPLE_SEED };
  for (let index = 0; index < argv.length; index += 2) {
    const [flag, value] = [argv[index], argv[index + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--rows' || flag === '--seed') {
      if (!/^\d+$/.test(value)) throw new Error(`${flag} must be a whole number`);
      options[flag === '--rows' ? 'rows' : 'seed'] = Number(value);
    } else if (flag === '--out') options.out = value;
    else throw new Error(`Unknown option ${flag}: use --out FILE, --rows N, --seed N`);
  }
  if (!options.out) throw new Error('Say where to write the file: --out FILE');
  return options;
}

async function main(): Promise<void> {
  const { rows, out, seed } = argumentsOf(process.argv.slice(2));
  await generate(rows, out, seed);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
