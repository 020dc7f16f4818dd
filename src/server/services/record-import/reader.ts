import { IMPORT_MESSAGES } from '../../../domain/record-import';
import { HttpError } from '../../plugins/errors';
import { createSandbox, SandboxFailure, type Sandbox } from '../../sandbox/sandbox';
import type { PreviewFound } from './fhir-to-kincare';

// Record files are read in a sandbox process (src/server/sandbox), never in the API's own: a 7.5 MB
// document takes about 1.7 s of CPU and 100 MB, which in the server's process would stall everyone's
// requests for that long. One process reads, under DECODE_MEMORY_MB; the fair queue gives each account
// one file at a time with one more waiting. The process starts on the first import.

const TIMEOUT_MS = 30_000;
const FILES_PER_PROCESS = 200;
const WAITING_PER_ACCOUNT = 1;
const WAITING_IN_ALL = 20;

export type RecordReader = {
  /** What the file holds; an HttpError with a sentence for the person when it cannot be read. */
  read(bytes: Uint8Array, account: string, zone?: string): Promise<PreviewFound>;
  processIds(): number[];
  close(): Promise<void>;
};

export function createRecordReader(options: { memoryMb: number }): RecordReader {
  let sandbox: Sandbox | null = null;
  const sandboxOf = () =>
    (sandbox ??= createSandbox({
      name: 'record import',
      processes: 1,
      memoryMb: options.memoryMb,
      jobsPerProcess: FILES_PER_PROCESS,
      perAccountWaiting: WAITING_PER_ACCOUNT,
      totalWaiting: WAITING_IN_ALL,
      warmUp: ['read-record-file'],
    }));
  return {
    async read(bytes, account, zone) {
      let answer;
      try {
        answer = await sandboxOf().run(
          account,
          'read-record-file',
          { bytes, zone },
          { timeoutMs: TIMEOUT_MS },
        );
      } catch (error) {
        if (!(error instanceof SandboxFailure)) throw error;
        if (error.reason === 'busy' || error.reason === 'closed') {
          const seconds = error.extra.retryAfterSeconds ?? 30;
          throw new HttpError(503, IMPORT_MESSAGES.busy, undefined, undefined, {
            'Retry-After': String(seconds),
          });
        }
        if (error.reason === 'memory' || error.reason === 'timeout')
          throw new HttpError(413, IMPORT_MESSAGES.tooMuchToRead);
        throw new HttpError(400, IMPORT_MESSAGES.unreadableDocument);
      }
      if ('refused' in answer) throw new HttpError(answer.refused.status, answer.refused.message);
      return answer.found;
    },
    processIds() {
      return sandbox?.pids() ?? [];
    },
    async close() {
      await sandbox?.close();
    },
  };
}
