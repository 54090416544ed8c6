// A reference image fitted into the frame as video-plan.ts fits it: scaled down to fit, even-sized, centred on black.
import type { ReferenceImage } from '../renderer.js';

const MIME: Record<ReferenceImage['format'], string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

async function bytesOf(image: ReferenceImage): Promise<Uint8Array> {
  if (image.bytes) return image.bytes;
  if (image.read) return image.read();
  throw new Error(`a ${image.format} reference image came with neither bytes nor a way to read them`);
}

/** The browser decodes the upload; a frame of exactly `width` x `height` holds it, padded with black. */
export async function referencePlate(image: ReferenceImage, width: number, height: number): Promise<OffscreenCanvas> {
  const bytes = await bytesOf(image);
  const bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: MIME[image.format] }));
  try {
    const scale = Math.min(width / bitmap.width, height / bitmap.height);
    // force_original_aspect_ratio=decrease, then trunc(iw/2)*2: never larger than the frame, always even.
    const w = Math.max(2, Math.trunc(Math.min(width, Math.round(bitmap.width * scale)) / 2) * 2);
    const h = Math.max(2, Math.trunc(Math.min(height, Math.round(bitmap.height * scale)) / 2) * 2);
    const plate = new OffscreenCanvas(width, height);
    const ctx = plate.getContext('2d')!;
    ctx.fillStyle = 'black';
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(bitmap, Math.floor((width - w) / 2), Math.floor((height - h) / 2), w, h);
    return plate;
  } finally {
    bitmap.close();
  }
}
