import { IMPORT_MESSAGES } from '../../domain/record-import';
import { readRecordFile } from '../services/record-import/read-file';
import { RecordFileRefusal } from '../services/record-import/refusal';
import type { ReadRecordFileAnswer, ReadRecordFileInput } from './protocol';

// A patient portal's record file (C-CDA XML or FHIR JSON) read into Kincare's shapes, inside a sandbox
// process (../services/record-import): a large document takes a second or two of CPU and a hundred
// megabytes, which here cost no one else's requests, under the process's memory ceiling. A file refused
// for what it is comes back as an answer with its sentence; anything else is the sandbox's to report.

/** The largest answer sent back (JSON): a preview is a person's records, a few hundred kilobytes at most. */
const MAX_ANSWER_CHARACTERS = 16 * 1024 * 1024;

export async function readRecordFileTask(input: ReadRecordFileInput): Promise<ReadRecordFileAnswer> {
  try {
    const found = await readRecordFile(input.bytes, input.zone);
    // Whatever a file's references multiply, the server's own process never receives more than this.
    if (JSON.stringify(found).length > MAX_ANSWER_CHARACTERS)
      return { refused: { status: 413, message: IMPORT_MESSAGES.tooMuchToRead } };
    return { found };
  } catch (error) {
    if (error instanceof RecordFileRefusal)
      return { refused: { status: error.status, message: error.message } };
    throw error;
  }
}

/** Loads the C-CDA converter before the first file, so a file's time limit counts its reading alone. */
export async function warmUp(): Promise<void> {
  await readRecordFile(new TextEncoder().encode('{"resourceType":"Basic"}'));
  const { convertCcda } = await import('../services/record-import/c-cda');
  await convertCcda('<ClinicalDocument xmlns="urn:hl7-org:v3"/>').catch(() => undefined);
}
