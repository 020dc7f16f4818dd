import { createRequire } from 'node:module';
import { Worker as ThreadWorker } from 'node:worker_threads';

// Photos from iPhones are HEIC, which browsers (other than Safari) cannot show and tesseract cannot read.
// An uploaded HEIC is therefore turned into a JPEG as it arrives, and only the JPEG is kept: every preview
// and every reading works on it. Decoding is libheif compiled to WebAssembly (heic-decode, bundled: nothing
// is fetched), run in a short-lived worker thread so a large or hostile file cannot stall the API, with a
// heap cap and a time limit; @napi-rs/canvas encodes the JPEG in the same thread.

const THREAD_HEAP_MB = 512;
const TIMEOUT_MS = 30_000;
const JPEG_QUALITY = 92;

const requireHere = createRequire(import.meta.url);

const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const decode = require(workerData.heicDecodePath);
  const { createCanvas } = require(workerData.canvasPath);
  const image = await decode({ buffer: workerData.bytes });
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  const pixels = context.createImageData(image.width, image.height);
  pixels.data.set(image.data);
  context.putImageData(pixels, 0, 0);
  const jpeg = new Uint8Array(await canvas.encode('jpeg', workerData.quality));
  parentPort.postMessage({ jpeg }, [jpeg.buffer]);
})().catch((error) => parentPort.postMessage({ error: String((error && error.message) || error) }));
`;

/** The HEIC photo as a JPEG; rejects when it cannot be decoded (the caller answers 'could not be read'). */
export function heicToJpeg(bytes: Buffer): Promise<Buffer> {
  const input = new Uint8Array(bytes); // a copy, transferred to the thread
  return new Promise<Buffer>((resolve, reject) => {
    const thread = new ThreadWorker(THREAD_SOURCE, {
      eval: true,
      workerData: {
        bytes: input,
        quality: JPEG_QUALITY,
        heicDecodePath: requireHere.resolve('heic-decode'),
        canvasPath: requireHere.resolve('@napi-rs/canvas'),
      },
      transferList: [input.buffer],
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void thread.terminate();
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error('decoding the HEIC photo took too long'))),
      TIMEOUT_MS,
    );
    thread.once('message', (answer: { jpeg?: Uint8Array; error?: string }) =>
      finish(() =>
        answer.jpeg
          ? resolve(Buffer.from(answer.jpeg.buffer, answer.jpeg.byteOffset, answer.jpeg.byteLength))
          : reject(new Error(`the HEIC photo could not be decoded: ${answer.error ?? 'no answer'}`)),
      ),
    );
    thread.once('error', (error) => finish(() => reject(error)));
    thread.once('exit', (code) =>
      finish(() => reject(new Error(`the HEIC thread stopped without answering (exit code ${code})`))),
    );
  });
}
