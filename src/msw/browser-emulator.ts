// The composition root of a page: the same core, plane and store as src/emulator.ts, over a browser's host services
// (@noble/hashes, sql.js in memory or kept in IndexedDB, uploads in memory, the WebCodecs renderer), served by the fetch host.
import { composePlugins } from '../compose-plugins.js';
import { LOOPBACK_HOSTS, refuseUnknownTimingModels, resolveOptions } from '../config.js';
import type { Catalogue } from '../domain/catalogue.js';
import type { EmulatorHost } from '../emulator-host.js';
import { parseDuration } from '../domain/durations.js';
import { planeGuard } from '../emulation/admin/plane-guard.js';
import { loadPatternEngine } from '../emulation/faults/fault-patterns.js';
import { resolvePlaneOptions } from '../emulation/plane-options.js';
import type { Control } from '../emulation/client.js';
import type { HostScenarios } from '../emulation/scenarios/scenario-shelf.js';
import type { ScenarioInput } from '../emulation/scenarios/scenario-schema.js';
import { buildApp } from '../http/app.js';
import type { Pipeline } from '../http/pipeline.js';
import { type BrowserRenderer, createBrowserRenderer } from '../infra/browser-renderer/browser-renderer.js';
import type { LoadFallback } from '../infra/browser-renderer/fallback-media.js';
import { streamInflatedLength } from '../infra/inflated-length.js';
import { nobleCrypto } from '../infra/noble-crypto.js';
import type { RendererInfo } from '../infra/renderer.js';
import { openBrowserDatabase } from '../infra/sqlite-browser.js';
import { sqliteStoreOver } from '../infra/sqlite-store.js';
import { loadWasmSqlite } from '../infra/sqlite-wasm-driver.js';
import { createMemoryUploadBlobs } from '../infra/upload-blobs.js';
import { OPENAPI_PATH_OPTIONS, openapiRoute } from '../openapi/openapi-route.js';
import { type StoreFactory, storeOfRecordOver } from '../store/store-of-record.js';
import { buildWorld, pluginAnswers } from '../world-factory.js';
import type { BrowserOnlyOptions, MediaHandlerOptions } from './media-handlers.js';

export interface BrowserEmulatorParts {
  options: MediaHandlerOptions & BrowserOnlyOptions & { publicBaseUrl: string };
  catalogue: Catalogue;
  scenarios: HostScenarios;
  /** The page's origin: its own requests to the plane carry it. */
  pageOrigin: string | undefined;
  loadFallback?: LoadFallback;
}

export interface BrowserEmulator {
  pipeline: Pipeline;
  apiKey: string;
  control: Control;
  reset(): Promise<void>;
  close(): Promise<void>;
  /** Resolves once every committed change is written where a reload finds it (at once without `persist`). */
  kept(): Promise<void>;
}

/** The browser renderer's report in the plane's words (health, the console). */
const rendererReport = (renderer: BrowserRenderer): RendererInfo => ({
  mode: renderer.info.mode,
  warning: renderer.info.warning,
  maxParallel: renderer.info.maxParallel,
});

/** Builds the page's emulator and opens its store (the SQLite WebAssembly is fetched here, on first use). */
export async function composeBrowserEmulator(parts: BrowserEmulatorParts): Promise<BrowserEmulator> {
  const { persist = false, persistName = 'media-gen-emulator', wasmUrl, scenario, ...core } = parts.options;
  const options = resolveOptions(core);
  const { catalogue } = parts;
  refuseUnknownTimingModels(options.timingByModel, catalogue);
  const planeOptions = resolvePlaneOptions(core);
  let plugins: ReturnType<typeof composePlugins> | undefined;
  let renderer: BrowserRenderer | undefined;
  let rendering: Promise<BrowserRenderer> | undefined;
  const startRenderer = () =>
    (rendering ??= createBrowserRenderer({
      now: () => runtime.context().clock.now(),
      maxStoreBytes: options.maxStoreBytes,
      maxParallel: options.maxParallelRenders || 1,
      log: options.log,
      loadFallback: parts.loadFallback,
    }).then((r) => (renderer = r)));

  // sql.js is a chunk of its own and its .wasm a separate file: both fetched now, not when the pack is imported.
  // re2js, a chunk too, comes with them only when building the world compiles fault patterns (synchronously): a
  // scenario to load, or kept state that may hold rules. Otherwise the plane's first change fetches it.
  const patternsAtStart = scenario !== undefined || persist;
  const [sqlite] = await Promise.all([loadWasmSqlite({ wasmUrl }), patternsAtStart && loadPatternEngine()]);
  const database = await openBrowserDatabase(sqlite, {
    persist: persist ? 'indexeddb' : false,
    name: persistName,
    warn: options.log,
  });
  const openStore: StoreFactory = (deps, resolved) =>
    storeOfRecordOver(sqliteStoreOver(database.connection, persistName), deps, {
      persistent: persist,
      log: resolved.log,
      errorStatuses: resolved.errorStatuses,
      errorCodes: resolved.errorCodes,
      // A page has no setImmediate: the group commit runs in a task after this one.
      defer: (settle) => void setTimeout(settle, 0),
    });
  const host: EmulatorHost = {
    crypto: nobleCrypto,
    parallelism: () => 1,
    readCatalogue: () => catalogue,
    uploadBlobs: (resolved) => createMemoryUploadBlobs({ maxBytes: resolved.maxUploadStoreBytes }),
    openStore,
    inflatedLength: streamInflatedLength,
  };
  // The same world the server builds (world-factory.ts), over the page's services.
  const { world, runtime, keptSecret, uploadBlobs } = buildWorld(
    {
      id: 'default',
      options,
      settings: {
        publicBaseUrl: options.publicBaseUrl,
        maxUploadBytes: Math.max(1, ...catalogue.models.map((m) => m.reference_inputs?.max_bytes ?? 0)),
        inflatedLength: streamInflatedLength,
      },
      meta: () => plugins?.store,
      clearRenders: () => true,
    },
    {
      host,
      catalogue,
      startRenderer,
      currentRenderer: () => renderer,
      ...pluginAnswers(() => plugins),
    },
  );
  plugins = composePlugins(
    { options, catalogue, rendererInfo: () => (renderer ? rendererReport(renderer) : undefined) },
    world,
    { ...planeOptions, scenario, scenarios: parts.scenarios },
    openStore,
  );
  const { plane, store, inOrder } = plugins;
  const allowedHosts = new Set<string>([...LOOPBACK_HOSTS, new URL(options.publicBaseUrl ?? '').hostname]);
  const controlOrigins = [...planeOptions.controlCorsOrigins, ...(parts.pageOrigin ? [parts.pageOrigin] : [])];
  const { pipeline } = buildApp({
    routes: [
      ...inOrder.flatMap((p) => p.routes ?? []),
      openapiRoute({
        errorStatuses: options.errorStatuses,
        contributions: () => Promise.all(inOrder.flatMap((p) => (p.openapi ? [p.openapi()] : []))),
      }),
    ],
    pathOptions: Object.assign({}, OPENAPI_PATH_OPTIONS, ...inOrder.map((p) => p.pathOptions)),
    world: () => world,
    guard: planeGuard({ adminToken: () => undefined, allowedHosts: () => allowedHosts, controlOrigins }),
    corsOrigins: options.corsOrigins,
    controlCorsOrigins: controlOrigins,
    hooks: inOrder.flatMap((p) => p.hooks ?? []),
    errorStatuses: Object.assign({}, ...inOrder.map((p) => p.errorStatuses), options.errorStatuses),
    errorCodes: options.errorCodes,
    log: options.log,
  });

  // As Node's start(): the kept secret is read before the state, then settled.
  const kept = keptSecret.kept();
  await store.open();
  keptSecret.settle(kept);
  plane.start(world);
  void startRenderer().catch((error: unknown) => options.log(`renderer: could not start (${String(error)})`));

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const ctx = runtime.context();
      ctx.scheduler.clear();
      ctx.lifecycle.clear();
      await (await rendering?.catch(() => undefined))?.close();
      await runtime.stop();
      await uploadBlobs.close();
      await store.close({ write: true });
      await database.close();
    })());
  // Parsed once here so a bad timing option fails at creation, as on Node.
  parseDuration(options.renderTimeout, 'renderTimeout');
  return {
    pipeline,
    apiKey: options.apiKey,
    control: plane.control(world),
    reset: runtime.reset,
    close,
    kept: () => database.flush(),
  };
}

export type { ScenarioInput };
