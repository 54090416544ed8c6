// The composition root's part for sandboxes: the registry, each sandbox built like the default world, the sweep timer.
import type { Plugins } from '../compose-plugins.js';
import type { ResolvedOptions } from '../config.js';
import type { Catalogue } from '../domain/catalogue.js';
import { SANDBOXES } from '../emulation/sandboxes/sandbox-directory.js';
import type { ServiceRequest } from '../http/exchange.js';
import type { World, WorldResolution, WorldSettings } from '../http/world.js';
import { unref } from '../infra/unref.js';
import type { StoreOfRecord } from '../store/store-of-record.js';
import { buildWorld, type SharedParts } from '../world-factory.js';
import { type SandboxRegistry, sandboxRegistry } from './sandbox-registry.js';
import { worldResolver } from './world-resolver.js';

/** How often idle sandboxes are looked for; a request to an expired one finds it gone sooner. */
const SWEEP_MS = 15_000;

export interface SandboxParts {
  options: ResolvedOptions;
  catalogue: Catalogue;
  shared: SharedParts;
  plugins: Plugins;
  defaultWorld: World;
  /** The default world's settings: a sandbox's are the same, with its own options. */
  settings: WorldSettings;
  /** Real host time (Date.now unless a test injects it). */
  realNow(): number;
}

export interface Sandboxes {
  registry: SandboxRegistry;
  resolve(request: ServiceRequest): World | WorldResolution;
  /** After the store opened: the sandboxes it keeps come back. */
  restore(): Promise<void>;
  /** Before the store closes: every sandbox stops, the sweep timer too. */
  close(): Promise<void>;
}

export function composeSandboxes(parts: SandboxParts): Sandboxes {
  const { options, shared, plugins } = parts;
  const registry: SandboxRegistry = sandboxRegistry({
    options,
    catalogue: parts.catalogue,
    defaultWorld: () => parts.defaultWorld,
    realNow: parts.realNow,
    randomBytes: (length) => shared.host.crypto.randomBytes(length),
    makeWorld(id, worldOptions) {
      let store: StoreOfRecord | undefined;
      const built = buildWorld(
        {
          id,
          options: worldOptions,
          // Not `{ ...parts.settings, options }`: on Node 20's V8 that gives each world's settings a hidden class of its own.
          settings: Object.assign({}, parts.settings, { options: worldOptions }),
          meta: () => store,
          // Renders are content-addressed and shared: a sandbox's reset never clears another world's files.
          clearRenders: () => false,
          linkWorld: id,
        },
        shared,
      );
      store = plugins.attach(built.world);
      built.world.install(SANDBOXES, registry);
      return { built, store };
    },
    kept: plugins.store,
    log: options.log,
  });
  parts.defaultWorld.install(SANDBOXES, registry);
  const timer = setInterval(() => registry.sweep(), SWEEP_MS);
  // One timer for the whole registry, never holding the process open.
  unref(timer);
  return {
    registry,
    resolve: worldResolver(parts.defaultWorld, registry),
    restore: () => registry.restore(),
    async close() {
      clearInterval(timer);
      await registry.close();
    },
  };
}
