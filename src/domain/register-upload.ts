// POST /v1/media/uploads in domain terms: check the image against the model, then keep it for the account.
import type { ApiKey } from './accounts.js';
import type { DomainContext } from './context.js';
import { checkKeyScope, knownModel } from './request-checks.js';
import {
  checkReferenceImage,
  type ImageFormat,
  mimeFor,
  publicUpload,
  type SniffedImage,
  undecodable,
} from './uploads.js';

export interface UploadRequest {
  modelSlug: string;
  targetSlot?: string;
  filename: string | null;
  data: Uint8Array;
  /** The image type and size read from the bytes (never from the name or declared type); undefined if not an image. */
  sniffed: SniffedImage | undefined;
  /**
   * Why the pixel data cannot be decoded, if it cannot: called only once the header's size is within the model's
   * limits, so an image that declares too many pixels is refused before any of them is decoded.
   */
  pixelProblem?: (format: ImageFormat) => Promise<string | undefined>;
}

/** A client names the file (multipart allows ~16 KB); the record keeps as much as a file system would. */
const MAX_FILENAME_LENGTH = 255;

export async function registerUpload(ctx: DomainContext, key: ApiKey, request: UploadRequest) {
  const model = knownModel(ctx, request.modelSlug);
  checkKeyScope(key, model);
  const format = checkReferenceImage(model, request.data.length, request.sniffed, request.targetSlot);
  const problem = await request.pixelProblem?.(format);
  if (problem) throw undecodable(format, problem);
  const upload = {
    id: ctx.ids.next('upl'),
    accountId: key.accountId,
    modelSlug: model.slug,
    targetSlot: request.targetSlot ?? null,
    filename: request.filename === null ? null : request.filename.slice(0, MAX_FILENAME_LENGTH),
    format,
    mimeType: mimeFor(format),
    width: request.sniffed!.width,
    height: request.sniffed!.height,
    bytes: request.data.length,
    sha256: ctx.sha256Hex(request.data),
    createdAt: ctx.clock.now(),
  };
  ctx.uploads.add(upload);
  return publicUpload(upload);
}
