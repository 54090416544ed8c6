// One emulated world: the state a request acts on, reached by handlers and hooks only through their exchange.
import type { ResolvedOptions } from '../config.js';
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
  /** A sandbox's own options (its seeded key, balance, seed, timing); the instance's when undefined. */
  options?: ResolvedOptions;
}

/** What the plane's guard learns of how a request found its world (a sandbox's path or token). */
export interface WorldAccess {
  /** A refusal the guard answers once Host and Origin have passed: an unknown sandbox, another sandbox's token. */
  refusal?: Error;
  /** The request bore its world's own control token: the admin token is not asked for. */
  ownToken?: boolean;
}

/** A world found for a request other than by default: the world, the path inside it, and what the guard checks. */
export interface WorldResolution extends WorldAccess {
  world: World;
  /** The path the world's routes see, when the request named the world in its path (a sandbox's prefix). */
  path?: string;
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

  /** What a plugin keeps for this world, or undefined when that plugin is not composed. */
  find<T>(key: WorldPart<T>): T | undefined {
    return this.parts.get(key) as T | undefined;
  }

  part<T>(key: WorldPart<T>): T {
    const value = this.parts.get(key);
    if (value === undefined) throw new Error(`world ${this.name}: no ${key.name} (its plugin is not composed)`);
    return value as T;
  }
}
