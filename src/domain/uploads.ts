// Reference uploads: images checked by content against the model's limits, owned by one account and one model.
import { DomainError, ValidationFailure } from './errors.js';
import type { ModelEntry } from './catalogue-schema.js';
import { validationItem } from './validation-item.js';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

/** What the content sniffing found; the http layer reads it with image-size, whose names are `png`, `jpg`, `webp`... */
export interface SniffedImage {
  format: string;
  width: number;
  height: number;
}

export interface Upload {
  id: string;
  accountId: string;
  modelSlug: string;
  targetSlot: string | null;
  filename: string | null;
  format: ImageFormat;
  mimeType: string;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  /** The bytes live in the upload blob store (infra), under the upload's id. */
  createdAt: number;
}

const MIME: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** Checks a file against the model's reference rules; throws the refusal a client should see. */
export function checkReferenceImage(
  model: ModelEntry,
  size: number,
  sniffed: SniffedImage | undefined,
  targetSlot: string | undefined,
): ImageFormat {
  const rules = model.reference_inputs;
  if (!rules)
    throw new ValidationFailure([
      validationItem(
        'model_refs_not_supported',
        ['body', 'model_slug'],
        `Model '${model.slug}' takes no reference files; upload references for a model that accepts them`,
        model.slug,
        { max_files: 0 },
      ),
    ]);
  if (targetSlot !== undefined && !rules.slots.some((s) => s.name === targetSlot))
    throw new ValidationFailure([
      validationItem(
        'model_ref_slot_unknown',
        ['body', 'target_slot'],
        `Unknown slot '${targetSlot}' for model '${model.slug}'; allowed slots: ${rules.slots.map((s) => s.name).join(', ')}`,
        targetSlot,
        {
          allowed_slots: rules.slots.map((s) => s.name),
        },
      ),
    ]);
  if (size > rules.max_bytes)
    throw new DomainError(
      'upload_too_large',
      `The file has ${size} bytes; model '${model.slug}' accepts at most ${rules.max_bytes}. Send a smaller image.`,
    );
  const format = sniffed ? normaliseFormat(sniffed.format) : undefined;
  if (!sniffed)
    throw new DomainError(
      'unsupported_media_type',
      `The file is not an image. Model '${model.slug}' accepts ${rules.formats.join(', ')}.`,
    );
  if (!format)
    throw new DomainError(
      'unsupported_media_type',
      `The file is ${sniffed.format}; model '${model.slug}' accepts ${rules.formats.join(', ')}. Convert the image first.`,
    );
  if (!rules.formats.includes(format))
    throw new DomainError(
      'unsupported_media_type',
      `The file is ${format}; model '${model.slug}' accepts ${rules.formats.join(', ')}. Convert the image first.`,
    );
  const tooSmall =
    (rules.min_width && sniffed.width < rules.min_width) || (rules.min_height && sniffed.height < rules.min_height);
  const tooBig =
    (rules.max_width && sniffed.width > rules.max_width) || (rules.max_height && sniffed.height > rules.max_height);
  if (tooSmall || tooBig)
    throw new ValidationFailure([
      validationItem(
        'image_dimensions',
        ['body', 'file'],
        `Image is ${sniffed.width}x${sniffed.height}; model '${model.slug}' accepts from ${rules.min_width ?? 1}x${rules.min_height ?? 1} to ${rules.max_width ?? '∞'}x${rules.max_height ?? '∞'} pixels`,
        { width: sniffed.width, height: sniffed.height },
        {
          min_width: rules.min_width,
          min_height: rules.min_height,
          max_width: rules.max_width,
          max_height: rules.max_height,
        },
      ),
    ]);
  return format;
}

/** The refusal of an image whose header was fine but whose data cannot be decoded. */
export const undecodable = (format: ImageFormat, problem: string) =>
  new DomainError(
    'unsupported_media_type',
    `The ${format} file could not be decoded: ${problem}. Send the complete image.`,
  );

/** The sniffer's name of a type a model may accept (image-size calls a JPEG `jpg`), as the API names it. */
function normaliseFormat(type: string): ImageFormat | undefined {
  if (type === 'png' || type === 'webp') return type;
  if (type === 'jpg') return 'jpeg';
  return undefined;
}

export const mimeFor = (format: ImageFormat) => MIME[format];

export class UploadStore {
  private readonly uploads = new Map<string, Upload>();
  /** Ids added or deleted since the store of record last took them. */
  private changed = new Set<string>();

  add(upload: Upload) {
    this.uploads.set(upload.id, upload);
    this.changed.add(upload.id);
  }

  /** How many ids takeChanged() would give (a cheap look for the store of record). */
  get changedCount(): number {
    return this.changed.size;
  }

  /** Ids added (still present) or deleted (now missing) since the last call. */
  takeChanged(): string[] {
    const out = [...this.changed];
    this.changed = new Set();
    return out;
  }

  get(id: string): Upload | undefined {
    return this.uploads.get(id);
  }

  delete(id: string) {
    this.uploads.delete(id);
    this.changed.add(id);
  }

  all(): IterableIterator<Upload> {
    return this.uploads.values();
  }
}

export function publicUpload(u: Upload) {
  return {
    id: u.id,
    upload_id: u.id,
    model_slug: u.modelSlug,
    target_slot: u.targetSlot,
    filename: u.filename,
    mime_type: u.mimeType,
    format: u.format,
    width: u.width,
    height: u.height,
    bytes: u.bytes,
    sha256: u.sha256,
    created_at: new Date(u.createdAt).toISOString().replace('Z', '+00:00'),
  };
}
