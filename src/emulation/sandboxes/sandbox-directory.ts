// What the control plane asks of the emulator's registry of sandboxes: the composition root's (src/sandboxes/) implements it.
import type { Runtime } from '../../domain/runtime.js';
import { type World, WorldPart } from '../../http/world.js';
import type { SandboxSpec } from './sandbox-schema.js';

/** One sandbox as the lifecycle operations show it; the token only in the answer to its creation. */
export interface SandboxView {
  id: string;
  label: string | null;
  apiKey: string;
  createdAt: string;
  /** Real host time: every request the sandbox answers pushes it forward by `ttlSeconds`. */
  expiresAt: string;
  ttlSeconds: number;
}

export interface SandboxCreated extends SandboxView {
  /** The control token scoped to this sandbox: `Authorization: Bearer sbt_...`. */
  token: string;
}

/** The registry of worlds beside the default one, bounded by `maxSandboxes`. */
export interface SandboxDirectory {
  /** A new world from the instance's options and `spec`; 429 sandbox_limit_reached when the registry is full. */
  create(spec: SandboxSpec): Promise<SandboxCreated>;
  list(): SandboxView[];
  /** 404 sandbox_not_found for an unknown, deleted or expired id. */
  get(id: string): SandboxView;
  /** Back to its creation state (its seed, balance, timing and key kept). */
  reset(id: string): Promise<void>;
  /** Gone: its key answers 401, its token 401, its paths 404. */
  remove(id: string): Promise<void>;
  /** Another world than the one `runtime` runs (the default or a sandbox) holds this API key secret. */
  secretHeldElsewhere(secret: string, runtime: Runtime): boolean;
  /** An in-process call reached this world: a sandbox's idle TTL starts again (the default world has none). */
  used(world: World): void;
  /** A live sandbox's world (the in-process client drives it directly); 404 sandbox_not_found otherwise. */
  world(id: string): World;
}

/** The registry, installed in every world so the lifecycle operations find it through their deps. */
export const SANDBOXES = new WorldPart<SandboxDirectory>('the sandbox registry');
