// Images and multipart bodies made in memory, for upload tests without fixture files.
import { crc32, createDeflate, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  return chunk('IHDR', header);
}

/** A complete, decodable PNG of one colour. */
export function png(width = 64, height = 64, rgb: [number, number, number] = [40, 120, 200]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(width, height),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A complete PNG padded with zero bytes after IEND to exactly `size` bytes (decoders ignore what follows IEND). */
export function paddedPng(width: number, height: number, size: number): Buffer {
  const image = png(width, height);
  return Buffer.concat([image, Buffer.alloc(size - image.length)]);
}

/** Only the signature and header (no pixel data, refused at upload as undecodable): enough for content sniffing of large or odd dimensions, padded to `size` bytes. */
export function pngHeader(width: number, height: number, size?: number): Buffer {
  const head = Buffer.concat([PNG_SIGNATURE, ihdr(width, height)]);
  return size === undefined ? head : Buffer.concat([head, Buffer.alloc(size - head.length)]);
}

/** A multipart/form-data body with the given fields and an optional file part. */
export function multipart(
  fields: Record<string, string>,
  file?: { name?: string; filename?: string; type?: string; data: Buffer },
  boundary = 'propertyBoundary7MA4YWxk',
) {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name ?? 'file'}"; filename="${file.filename ?? 'ref.png'}"\r\nContent-Type: ${file.type ?? 'image/png'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A PNG whose every scanline is zero (filter 0, all-black) at the given bit depth and colour type: a tiny file that
 * decodes to a large image. The zeros are deflated in slices, so the test never holds the decoded image either.
 */
export async function zeroPng(width: number, height: number, bitDepth: number, colourType: number): Promise<Buffer> {
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colourType] ?? 1;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([bitDepth, colourType, 0, 0, 0], 8);
  const total = height * (1 + Math.ceil((width * bitDepth * channels) / 8));
  const slice = Buffer.alloc(Math.min(total, 4 * 1024 * 1024));
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  for (let left = total; left > 0; left -= slice.length) {
    const take = Math.min(left, slice.length);
    if (!deflate.write(slice.subarray(0, take))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(parts)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
