// The composition root of a page: the same core, plane and store as src/emulator.ts, over a browser's host services
// (@noble/hashes, sql.js in memory or kept in IndexedDB, uploads in memory, the WebCodecs renderer), served by the fetch host.
import { composePlugins } from '../compose-plugins.js';
import { LOOPBACK_HOSTS, refuseUnknownTimingModels, resolveOptions } from '../config.js';
import type { Catalogue } from '../domain/catalogue.js';
import { parseDuration } from '../domain/durations.js';
import { createRuntime } from '../domain/runtime.js';
import { planeGuard } from '../emulation/admin/plane-guard.js';
import type { Control } from '../emulation/client.js';
import type { HostScenarios } from '../emulation/scenarios/scenario-shelf.js';
import type { ScenarioInput } from '../emulation/scenarios/scenario-schema.js';
import { buildApp } from '../http/app.js';
import type { Pipeline } from '../http/pipeline.js';
import { World } from '../http/world.js';
import { type BrowserRenderer, createBrowserRenderer } from '../infra/browser-renderer/browser-renderer.js';
import type { LoadFallback } from '../infra/browser-renderer/fallback-media.js';
import { streamInflatedLength } from '../infra/inflated-length.js';
import { nobleCrypto } from '../infra/noble-crypto.js';
import type { RendererInfo } from '../infra/renderer.js';
import { createSigner, createSigningSecret } from '../infra/signer.js';
import { openBrowserDatabase } from '../infra/sqlite-browser.js';
import { sqliteStoreOver } from '../infra/sqlite-store.js';
import { loadWasmSqlite } from '../infra/sqlite-wasm-driver.js';
import { createMemoryUploadBlobs } from '../infra/upload-blobs.js';
import { OPENAPI_PATH_OPTIONS, openapiRoute } from '../openapi/openapi-route.js';
import { type StoreFactory, storeOfRecordOver } from '../store/store-of-record.js';
import { buildContext, SEEDED_ACCOUNT_ID } from '../wiring/build-context.js';
import { keptSigningSecret } from '../wiring/kept-signing-secret.js';
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
  const crypto = nobleCrypto;
  const signingSecret = createSigningSecret(options.signingSecret, crypto);
  const signer = createSigner(signingSecret, crypto);
  let plugins: ReturnType<typeof composePlugins> | undefined;
  const keptSecret = keptSigningSecret(signingSecret, {
    fixed: options.signingSecret !== undefined,
    meta: () => plugins?.store,
    log: options.log,
  });
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
  const uploadBlobs = createMemoryUploadBlobs({ maxBytes: options.maxUploadStoreBytes });
  const runtime = createRuntime({
    accountId: SEEDED_ACCOUNT_ID,
    build: (seeded) =>
      buildContext({
        options,
        catalogue,
        signer,
        crypto,
        parallelism: () => 1,
        renderer: startRenderer,
        uploadBytes: (id) => uploadBlobs.read(id),
        currentRenderer: () => renderer,
        planAdjuster: (input) => adjuster?.(input),
        promptCheck: (prompt) => plugins?.plane.checkPrompt?.(prompt),
        seeded,
      }),
    clearFiles: async () => {
      await renderer?.clear();
      await uploadBlobs.clear();
    },
    afterReset: () => {
      keptSecret.rotate();
      for (const plugin of plugins?.inOrder ?? []) plugin.afterReset?.(world);
    },
    afterRestore: (origin) => {
      if (origin === 'import') keptSecret.rotate();
    },
  });
  const world = new World('default', runtime, signer, uploadBlobs, {
    publicBaseUrl: options.publicBaseUrl,
    maxUploadBytes: Math.max(1, ...catalogue.models.map((m) => m.reference_inputs?.max_bytes ?? 0)),
    inflatedLength: streamInflatedLength,
  });

  // sql.js is a chunk of its own and its .wasm a separate file: both fetched now, not when the pack is imported.
  const sqlite = await loadWasmSqlite({ wasmUrl });
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
  plugins = composePlugins(
    { options, catalogue, rendererInfo: () => (renderer ? rendererReport(renderer) : undefined) },
    world,
    { scenario, scenarios: parts.scenarios },
    openStore,
  );
  const { plane, store, inOrder } = plugins;
  const adjuster = plane.planAdjuster?.(world);
  const allowedHosts = new Set<string>([...LOOPBACK_HOSTS, new URL(options.publicBaseUrl ?? '').hostname]);
  const controlOrigins = [...options.controlCorsOrigins, ...(parts.pageOrigin ? [parts.pageOrigin] : [])];
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
  return { pipeline, apiKey: options.apiKey, control: plane.control(world), reset: runtime.reset, close };
}

export type { ScenarioInput };
