// One emulated world: the state a request acts on, reached by handlers and hooks only through their exchange.
import type { Runtime } from '../domain/runtime.js';
import type { InflatedLength } from '../infra/inflated-length.js';
import type { Signer } from '../infra/signer.js';
import type { UploadBlobs } from '../infra/upload-blobs.js';

/** What a world's public routes are set up with. */
export interface WorldSettings {
  /** The base URL of signed links; the request's own (X-Forwarded-* honoured) when undefined. */
  publicBaseUrl?: string;
  /** Largest reference file any model accepts: the multipart limit of the `file` part. */
  maxUploadBytes: number;
  /** The host's zlib count, for the check that an uploaded PNG's pixel data is all there. */
  inflatedLength: InflatedLength;
  /** Recorded `GET /models` bodies from a calibration, served verbatim: `all` without a kind filter, else by kind. */
  recordedModels?: { all: unknown; byKind: Record<string, unknown> };
}

/** The key of what a plugin keeps per world (the plane's state, the store's handle). */
export class WorldPart<T> {
  /** Never read: it only ties the key to the type of what it finds. */
  declare readonly value: T;
  constructor(readonly name: string) {}
}

/**
 * Everything one world owns: the runtime (its domain context, swapped on reset and restore), its signer, its upload
 * bytes, its settings, and the parts plugins keep for it. The composition root builds the default world once; a
 * registry of worlds (sandboxes) is a change to the front door's `world` lookup and the composition root only.
 */
export class World {
  private readonly parts = new Map<WorldPart<unknown>, unknown>();

  constructor(
    readonly name: string,
    readonly runtime: Runtime,
    readonly signer: Signer,
    readonly uploadBlobs: UploadBlobs,
    readonly settings: WorldSettings,
  ) {}

  /** Installs what a plugin keeps for this world; once per key. */
  install<T>(key: WorldPart<T>, value: T): void {
    if (this.parts.has(key)) throw new Error(`world ${this.name}: ${key.name} is installed already`);
    this.parts.set(key, value);
  }

  part<T>(key: WorldPart<T>): T {
    const value = this.parts.get(key);
    if (value === undefined) throw new Error(`world ${this.name}: no ${key.name} (its plugin is not composed)`);
    return value as T;
  }
}
