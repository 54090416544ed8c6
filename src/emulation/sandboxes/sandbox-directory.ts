// What the control plane asks of the emulator's registry of sandboxes: the composition root's (src/sandboxes/) implements it.
import type * as z from 'zod';
import type { Runtime } from '../../domain/runtime.js';
import { type World, WorldPart } from '../../http/world.js';
import type { createdSandboxSchema, SandboxSpec, sandboxSchema } from './sandbox-schema.js';

/** A sandbox as the lifecycle operations show it (sandbox-schema.ts documents it); its token only on creation. */
export type SandboxView = z.output<typeof sandboxSchema>;
export type SandboxCreated = z.output<typeof createdSandboxSchema>;

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
