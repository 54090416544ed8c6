// What route modules are given: the current domain context (swapped on reset) and a few settings.
import type { UploadBlobs } from '../../infra/upload-blobs.js';
import type { BodyReading } from '../body/body-reading.js';
import type { DomainContext } from '../../domain/context.js';
import type { Signer } from '../../infra/signer.js';

export interface RouteDeps {
  ctx(): DomainContext;
  signer(): Signer;
  publicBaseUrl?: string;
  /** Largest reference file any model accepts, the multipart limit of the `file` part. */
  maxUploadBytes: number;
  /** Recorded `GET /models` bodies from a calibration, served verbatim: `all` without a kind filter, else by kind. */
  recordedModels?: { all: unknown; byKind: Record<string, unknown> };
  /** Where upload bytes go: on disk, under a byte cap. */
  uploadBlobs: UploadBlobs;
  /** How a body is read: as sent, within the body timeout, under the cap on bytes held at once. */
  bodies: BodyReading;
}
