// The type and size of an uploaded image, read from its first bytes at a bounded cost, whatever the upload holds.

/** Every format but JPEG keeps its size in a fixed header near the start: image-size never needs more than this. */
const HEADER_BYTES = 64 * 1024;
/** A real JPEG reaches its frame header after a few dozen markers; a file that needs more is not one we read. */
const MAX_JPEG_MARKERS = 10_000;

/** Start-of-frame markers (SOF0-SOF15 but DHT, JPG and DAC), which carry the height and width. */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
/** Markers with no length field: TEM, RST0-7 and a repeated SOI. */
const standsAlone = (marker: number) => marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7);
/** The big-endian 16-bit number at `offset` (a JPEG's lengths and sizes). */
const uint16 = (data: Uint8Array, offset: number) => (data[offset] << 8) | data[offset + 1];

/**
 * Walks a JPEG's segments by their lengths to the frame header. Each step jumps a whole segment, and the walk stops
 * after MAX_JPEG_MARKERS, so a file of zeros or of fill bytes costs a few steps, not one per byte.
 */
function jpegSize(data: Uint8Array): { width: number; height: number } | undefined {
  let offset = 2;
  for (let markers = 0; markers < MAX_JPEG_MARKERS && offset + 4 <= data.length; markers++) {
    if (data[offset] !== 0xff) return undefined;
    const marker = data[offset + 1];
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (standsAlone(marker)) {
      offset += 2;
      continue;
    }
    // Scan data or the end before any frame header: no size to read.
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = uint16(data, offset + 2);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      if (offset + 9 > data.length) return undefined;
      return { height: uint16(data, offset + 5), width: uint16(data, offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}

/** The image type as image-size names it (`png`, `jpg`, `webp`...) and its size in pixels. */
export interface ImageHeader {
  format: string;
  width: number;
  height: number;
}

/**
 * The image type and size read from the bytes (never the name or declared type); undefined if not an image.
 * image-size (its 20 formats, 4.9 KB min+gzip) is imported when the first upload arrives, so a page that never uploads
 * never fetches it; every upload awaits it, a JPEG too, so uploads are registered in the order they were read.
 */
export async function sniffImage(data: Uint8Array): Promise<ImageHeader | undefined> {
  const { imageSize } = await import('image-size');
  if (data.length >= 2 && data[0] === 0xff && data[1] === 0xd8) {
    const size = jpegSize(data);
    return size?.width && size.height ? { format: 'jpg', ...size } : undefined;
  }
  try {
    const size = imageSize(data.subarray(0, HEADER_BYTES));
    if (!size.type || !size.width || !size.height) return undefined;
    return { format: size.type, width: size.width, height: size.height };
  } catch {
    return undefined;
  }
}
