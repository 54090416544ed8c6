// The store of record as a plugin beside the core (not in it): its hooks in the pipeline, its codes, its handle.
import type { Runtime } from '../domain/runtime.js';
import type { ExchangeHooks } from '../http/pipeline.js';
import { type World, WorldPart } from '../http/world.js';
import type { UploadBlobs } from '../infra/upload-blobs.js';
import type { EmulatorPlugin, PluginSetup } from '../wiring/plugin.js';
import { type KeptState, STORE_HANDLE, type StoreHandle } from '../wiring/kept-state.js';
import { exportState, importState, type DocumentDeps } from './state-document.js';
import type { StoreFactory, StoreOfRecord } from './store-of-record.js';
import { STORE_ERROR_STATUSES } from './store-errors.js';

/** A world's store, as its hooks: the plugin's hooks reach the one of the exchange's world. */
const STORE_HOOKS = new WorldPart<StoreOfRecord['hooks']>('the store of record hooks');

/** The store's part in every exchange, through the exchange's world. */
const worldStoreHooks: ExchangeHooks = {
  before: (x) => x.world.part(STORE_HOOKS).before(x),
  gate: (x, response) => x.world.part(STORE_HOOKS).gate(x, response),
};

/** The store keeps one world's records: the default world's, until worlds of their own come with stores of their own. */
export interface StoreSetup extends PluginSetup {
  runtime: Runtime;
  uploadBlobs: UploadBlobs;
}

export interface StorePlugin extends EmulatorPlugin {
  /** Opened by the entry point (start()), closed after everything else has stopped. */
  readonly store: StoreOfRecord;
  /** What the other plugins are given: the export document, import, and a commit. */
  readonly handle: StoreHandle;
  /**
   * Gives another world (a sandbox) its rows in the same database, its handle and its hooks: its answers join the
   * same group commits. `kept` is what the other plugins keep of that world.
   */
  attach(world: World, kept: KeptState): StoreOfRecord;
}

/**
 * One call serves one emulator, over the store `open` makes (on Node a file with --state-file, a private temporary
 * database otherwise). `kept` is what the other plugins keep in it beside the service's records; the store knows their
 * sections, never the plugins.
 */
export function storePlugin(setup: StoreSetup, kept: KeptState, open: StoreFactory): StorePlugin {
  const { runtime, options, uploadBlobs } = setup;
  const deps: DocumentDeps = { runtime, uploadBlobs, kept };
  const store = open(deps, options);
  const handleOf = (worldDeps: DocumentDeps, worldStore: StoreOfRecord): StoreHandle => ({
    exportState: () => exportState(worldDeps),
    importState: (document) => importState(worldDeps, document),
    commit: () => worldStore.commit(),
  });
  const handle = handleOf(deps, store);
  return {
    // First among the plugins' hooks: it notes when each change began before any other plugin can answer, and its
    // commit (or its 507) is what the later hooks see going out.
    hooks: [worldStoreHooks],
    worldParts: [
      { key: STORE_HANDLE, make: () => handle },
      { key: STORE_HOOKS, make: () => store.hooks },
    ],
    errorStatuses: STORE_ERROR_STATUSES,
    store,
    handle,
    attach(world, worldKept) {
      const worldDeps: DocumentDeps = { runtime: world.runtime, uploadBlobs: world.uploadBlobs, kept: worldKept };
      const worldStore = store.forWorld(world.name, worldDeps);
      world.install(STORE_HANDLE, handleOf(worldDeps, worldStore));
      world.install(STORE_HOOKS, worldStore.hooks);
      return worldStore;
    },
  };
}
