// The store of record as a plugin beside the core (not in it): its hooks in the response pipeline, its codes, its handle.
import type { PluginSetup, EmulatorPlugin } from '../wiring/plugin.js';
import type { KeptState, StoreHandle } from '../wiring/kept-state.js';
import { exportState, importState, type DocumentDeps } from './state-document.js';
import type { StoreFactory, StoreOfRecord } from './store-of-record.js';
import { STORE_ERROR_STATUSES } from './store-errors.js';

export interface StorePlugin extends EmulatorPlugin {
  /** Opened by the entry point (start()), closed after everything else has stopped. */
  readonly store: StoreOfRecord;
  /** What the other plugins are given: the export document, import, and a commit. */
  readonly handle: StoreHandle;
}

/**
 * One call serves one emulator, over the store `open` makes (on Node a file with --state-file, a private temporary
 * database otherwise). `kept` is what the other plugins keep in it beside the service's records; the store knows their
 * sections, never the plugins.
 */
export function storePlugin(setup: PluginSetup, kept: KeptState, open: StoreFactory): StorePlugin {
  const { runtime, options, uploadBlobs } = setup;
  const deps: DocumentDeps = { runtime, uploadBlobs, kept };
  const store = open(deps, options);
  return {
    // First among the plugins' middleware: it notes when each change began, before any other plugin can answer.
    middleware: [store.middleware()],
    // First among the beforeSend hooks: its commit (or its 507) is what the later hooks see going out.
    responseHooks: [{ beforeSend: store.gate }],
    errorStatuses: STORE_ERROR_STATUSES,
    store,
    handle: {
      exportState: () => exportState(deps),
      importState: (document) => importState(deps, document),
      commit: () => store.commit(),
    },
  };
}
