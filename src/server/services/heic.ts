import { createSandbox, SandboxFailure, type Sandbox } from '../sandbox/sandbox';

// Photos from iPhones are HEIC, which browsers (other than Safari) cannot show and tesseract cannot read.
// An uploaded HEIC is therefore turned into a JPEG as it arrives, and only the JPEG is kept: every preview
// and every reading works on it. The conversion runs in a sandbox process under a memory ceiling
// (src/server/sandbox), after the photo's size was read from its own boxes (heif-boxes.ts) and found
// within the pixel cap; a fair queue gives each account one conversion at a time.

const TIMEOUT_MS = 30_000;
const JPEG_QUALITY = 92;
/** Conversions one account may have waiting; its uploads are limited per minute besides. */
const WAITING_PER_ACCOUNT = 2;
const WAITING_IN_ALL = 20;
const CONVERSIONS_PER_PROCESS = 100;

/** Why a photo could not be converted: it needed too much memory, the converters are busy, or it is unreadable. */
export class HeicConversionFailure extends Error {
  constructor(
    readonly reason: 'memory' | 'busy' | 'unreadable',
    readonly retryAfterSeconds?: number,
    options?: { cause?: unknown },
  ) {
    super(`the HEIC photo could not be converted (${reason})`, options);
    this.name = 'HeicConversionFailure';
  }
}

export type HeicConverter = {
  /** The photo as a JPEG; `account` is whose upload it is (the fair queue's lane). */
  toJpeg(bytes: Buffer, account: string): Promise<Buffer>;
  processIds(): number[];
  close(): Promise<void>;
};

export function createHeicConverter(options: { processes: number; memoryMb: number }): HeicConverter {
  let sandbox: Sandbox | null = null;
  const sandboxOf = () =>
    (sandbox ??= createSandbox({
      name: 'image conversion',
      processes: options.processes,
      memoryMb: options.memoryMb,
      jobsPerProcess: CONVERSIONS_PER_PROCESS,
      perAccountWaiting: WAITING_PER_ACCOUNT,
      totalWaiting: WAITING_IN_ALL,
      warmUp: ['heic-to-jpeg'],
    }));
  return {
    async toJpeg(bytes, account) {
      try {
        const { jpeg } = await sandboxOf().run(
          account,
          'heic-to-jpeg',
          { bytes: new Uint8Array(bytes), quality: JPEG_QUALITY },
          { timeoutMs: TIMEOUT_MS },
        );
        return Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
      } catch (error) {
        if (!(error instanceof SandboxFailure)) throw error;
        if (error.reason === 'memory') throw new HeicConversionFailure('memory', undefined, { cause: error });
        if (error.reason === 'busy' || error.reason === 'closed')
          throw new HeicConversionFailure('busy', error.extra.retryAfterSeconds ?? 60, { cause: error });
        throw new HeicConversionFailure('unreadable', undefined, { cause: error });
      }
    },
    processIds() {
      return sandbox?.pids() ?? [];
    },
    async close() {
      await sandbox?.close();
    },
  };
}
