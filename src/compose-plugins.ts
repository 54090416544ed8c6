// The plugins of one emulator, for the composition root: the store of record and the emulation plane, in pipeline order.
import { type EmulationPlane, emulationPlane, type PlaneOptions } from './emulation/plugin.js';
import type { StoreFactory, StoreOfRecord } from './store/store-of-record.js';
import { type StorePlugin, storePlugin } from './store/store-plugin.js';
import type { EmulatorPlugin, PluginSetup } from './wiring/plugin.js';

export interface Plugins {
  /** Opened by start(), closed last by close(). */
  store: StoreOfRecord;
  plane: EmulationPlane;
  /**
   * The order their middleware and response hooks run in. The store first: it notes when each change began and
   * commits before the first byte, so the plane's journal sees the answer that actually goes out (a 507 when the
   * commit failed).
   */
  inOrder: EmulatorPlugin[];
}

/**
 * The store is built from the sections the plane keeps in it, by the host's `openStore`; the plane reaches the store
 * through its handle.
 */
export function composePlugins(
  setup: PluginSetup,
  scenario: PlaneOptions['scenario'],
  openStore: StoreFactory,
): Plugins {
  let store: StorePlugin | undefined;
  const plane = emulationPlane(setup, {
    scenario,
    store: () => {
      if (!store) throw new Error('The store of record is used before it was built.');
      return store.handle;
    },
  });
  store = storePlugin(setup, plane.keptState ?? { sections: [] }, openStore);
  return { store: store.store, plane, inOrder: [store, plane] };
}
