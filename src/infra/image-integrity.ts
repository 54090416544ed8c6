// Whether an uploaded image's pixel data is really there (a header alone, 45 bytes, can fake any size), checked at a
// bounded cost: the header is judged before a byte is decoded, and the decode is counted by the host's InflatedLength.
import type { InflatedLength } from './inflated-length.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const IHDR = 0x49484452;
const IDAT = 0x49444154;
const IEND = 0x49454e44;
/** Bit depths each PNG colour type allows (PNG spec 11.2.2), and its channels. */
const COLOUR_TYPES: Record<number, { depths: number[]; channels: number }> = {
  0: { depths: [1, 2, 4, 8, 16], channels: 1 },
  2: { depths: [8, 16], channels: 3 },
  3: { depths: [1, 2, 4, 8], channels: 1 },
  4: { depths: [8, 16], channels: 2 },
  6: { depths: [8, 16], channels: 4 },
};
const MAX_DIMENSION = 2 ** 31 - 1;
/**
 * The most decoded bytes the emulator checks, whatever a model allows: a 4096 x 4096 image at 16-bit RGBA is 128 MiB.
 * Past it the declared image is refused from its header alone.
 */
export const MAX_DECODED_BYTES = 512 * 1024 * 1024;
/** Real encoders write a few dozen chunks (IDAT split every 8-64 KiB); a file of a million empty ones is not a PNG. */
const MAX_CHUNKS = 20_000;
/** The Adam7 passes: x start, y start, x step, y step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

interface PngHeader {
  width: number;
  height: number;
  bitsPerPixel: number;
  interlaced: boolean;
}

/** The decoded size the header promises: every scanline (of every Adam7 pass) with its filter byte. */
function decodedBytes({ width, height, bitsPerPixel, interlaced }: PngHeader): number {
  const lines = (w: number, h: number) => (w && h ? h * (1 + Math.ceil((w * bitsPerPixel) / 8)) : 0);
  if (!interlaced) return lines(width, height);
  let total = 0;
  for (const [x0, y0, dx, dy] of ADAM7)
    total += lines(Math.ceil(Math.max(0, width - x0) / dx), Math.ceil(Math.max(0, height - y0) / dy));
  return total;
}

function readHeader(body: Uint8Array): PngHeader | string {
  if (body.length !== 13) return 'the IHDR chunk is not 13 bytes';
  const view = new DataView(body.buffer, body.byteOffset, body.length);
  const width = view.getUint32(0);
  const height = view.getUint32(4);
  const [depth, colourType, compression, filter, interlace] = body.subarray(8, 13);
  const colour = COLOUR_TYPES[colourType];
  if (!width || !height || width > MAX_DIMENSION || height > MAX_DIMENSION)
    return `the size ${width}x${height} is not valid`;
  if (!colour?.depths.includes(depth)) return `bit depth ${depth} with colour type ${colourType} is not valid`;
  if (compression !== 0 || filter !== 0 || interlace > 1) return 'the IHDR chunk names an unknown method';
  return { width, height, bitsPerPixel: depth * colour.channels, interlaced: interlace === 1 };
}

interface PngChunks {
  header: PngHeader | string;
  idat: Uint8Array[];
  ended: boolean;
}

/** Walks the chunks by their lengths (one jump per chunk, at most MAX_CHUNKS), keeping the header and image data. */
function walkChunks(data: Uint8Array): PngChunks | string {
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  let header: PngHeader | string = 'no IHDR chunk';
  const idat: Uint8Array[] = [];
  let offset = 8;
  for (let chunks = 0; offset + 8 <= data.length; chunks++) {
    if (chunks === MAX_CHUNKS) return `it holds more than ${MAX_CHUNKS} chunks`;
    const length = view.getUint32(offset);
    const type = view.getUint32(offset + 4);
    const end = offset + 8 + length;
    if (end > data.length) return `chunk ${String.fromCharCode(...data.subarray(offset + 4, offset + 8))} is cut short`;
    if (type === IHDR && offset === 8) header = readHeader(data.subarray(offset + 8, end));
    else if (type === IDAT) idat.push(data.subarray(offset + 8, end));
    else if (type === IEND) return { header, idat, ended: true };
    offset = end + 4;
  }
  return { header, idat, ended: false };
}

/** PNG: judges the header from the chunks, then counts what the image data inflates to. */
async function pngProblem(data: Uint8Array, inflatedLength: InflatedLength): Promise<string | undefined> {
  if (!startsWith(data, PNG_SIGNATURE)) return 'no PNG signature';
  const chunks = walkChunks(data);
  if (typeof chunks === 'string') return chunks;
  const { header, idat, ended } = chunks;
  if (typeof header === 'string') return header;
  if (!idat.length) return 'no image data (IDAT)';
  if (!ended) return 'no IEND chunk: the file is truncated';
  const expected = decodedBytes(header);
  if (expected > MAX_DECODED_BYTES)
    return `it declares ${header.width}x${header.height} pixels, ${expected} bytes decoded; the emulator checks at most ${MAX_DECODED_BYTES}`;
  const inflated = await inflatedLength(idat, expected);
  if (inflated instanceof Error) return `the image data does not decompress (${inflated.message})`;
  if (inflated < expected) return `the image data holds ${inflated} of ${expected} bytes`;
  if (inflated > expected) return `the image data holds more than the ${expected} bytes its header declares`;
  return undefined;
}

const startsWith = (data: Uint8Array, prefix: readonly number[]) => prefix.every((byte, i) => data[i] === byte);

/** JPEG: scan data must start (SOS, FF DA) and the file must end with EOI (FF D9; zero padding after it aside). */
function jpegProblem(data: Uint8Array): string | undefined {
  // One native search over the bytes as Latin-1 text (0xFF and 0xDA read the same there), whatever the file holds.
  if (!new TextDecoder('latin1').decode(data).includes('\u00ff\u00da')) return 'no scan data (SOS)';
  // Trailing zeros walked back from the end, then the marker must sit just before them.
  let end = data.length;
  while (end > 0 && data[end - 1] === 0) end--;
  if (end < 2 || data[end - 2] !== 0xff || data[end - 1] !== 0xd9)
    return 'no end-of-image marker: the file is truncated';
  return undefined;
}

/** WebP: the RIFF size must match the file, and the image chunk must carry data. */
function webpProblem(data: Uint8Array): string | undefined {
  if (data.length < 20) return 'the file is truncated';
  if (new DataView(data.buffer, data.byteOffset, data.length).getUint32(4, true) + 8 > data.length)
    return 'the RIFF container is cut short';
  return undefined;
}

/**
 * Why the image cannot be decoded, or undefined when its data is complete. Call it only once the size is allowed;
 * `inflatedLength` is the host's zlib count (the PNG check).
 */
export async function imageProblem(
  format: string,
  data: Uint8Array,
  inflatedLength: InflatedLength,
): Promise<string | undefined> {
  if (format === 'png') return pngProblem(data, inflatedLength);
  if (format === 'jpg' || format === 'jpeg') return jpegProblem(data);
  if (format === 'webp') return webpProblem(data);
  return undefined;
}
