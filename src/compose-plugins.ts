// The plugins of one emulator, for the composition root: the store of record and the emulation plane, in pipeline order.
import type { World } from './http/world.js';
import { type EmulationPlane, emulationPlane, type PlaneOptions } from './emulation/plugin.js';
import type { StoreFactory, StoreOfRecord } from './store/store-of-record.js';
import { storePlugin } from './store/store-plugin.js';
import type { EmulatorPlugin, PluginSetup } from './wiring/plugin.js';

export interface Plugins {
  /** Opened by start(), closed last by close(). */
  store: StoreOfRecord;
  plane: EmulationPlane;
  /**
   * The order their hooks run in. The store first: it notes when each change began and commits before the first byte,
   * so the plane's journal sees the answer that actually goes out (a 507 when the commit failed).
   */
  inOrder: EmulatorPlugin[];
}

/** Installs what a plugin keeps for the world. */
function installParts(world: World, plugin: EmulatorPlugin): void {
  for (const part of plugin.worldParts ?? []) world.install(part.key, part.make(world));
}

/**
 * The store keeps `world` (the default world), opened by the host's `openStore` and built from the sections the plane
 * keeps in it; the plane reaches the store through the handle the store installs in the world.
 */
export function composePlugins(
  setup: PluginSetup,
  world: World,
  planeOptions: PlaneOptions,
  openStore: StoreFactory,
): Plugins {
  const plane = emulationPlane(setup, planeOptions);
  installParts(world, plane);
  const store = storePlugin(
    { ...setup, runtime: world.runtime, uploadBlobs: world.uploadBlobs },
    plane.keptState?.(world) ?? { sections: [] },
    openStore,
  );
  installParts(world, store);
  return { store: store.store, plane, inOrder: [store, plane] };
}
