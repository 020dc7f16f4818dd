import { createRequire } from 'node:module';
import { createCanvas } from '@napi-rs/canvas';
import type { HeicToJpegAnswer, HeicToJpegInput } from './protocol';
import { TaskRefusal } from './task-refusal';

// A HEIC photo as a JPEG, inside a sandbox process (see README.md beside this file): libheif compiled to
// WebAssembly (heic-decode, bundled: nothing is fetched) decodes it, @napi-rs/canvas encodes the JPEG.
// The server has already read the photo's size from its boxes (services/heif-boxes.ts) and refused any
// image, grid or tile over the pixel cap, so what reaches here is bounded; the process's memory ceiling
// bounds whatever the boxes did not say.

type HeicDecode = (options: { buffer: Uint8Array }) => Promise<{
  width: number;
  height: number;
  data: Uint8ClampedArray;
}>;

const decode = createRequire(import.meta.url)('heic-decode') as HeicDecode;

export async function heicToJpeg(input: HeicToJpegInput): Promise<HeicToJpegAnswer> {
  let image: Awaited<ReturnType<HeicDecode>>;
  try {
    image = await decode({ buffer: input.bytes });
  } catch (error) {
    throw new TaskRefusal(
      /memory|allocat|grow/i.test(String(error)) ? 'memory' : 'unreadable',
      String(error),
    );
  }
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  const pixels = context.createImageData(image.width, image.height);
  pixels.data.set(image.data);
  context.putImageData(pixels, 0, 0);
  return { jpeg: new Uint8Array(await canvas.encode('jpeg', input.quality)) };
}
