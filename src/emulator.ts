// The composition root: options -> infra -> runtime -> the store of record and the emulation plane -> http app. The one place that wires layers.
import { accessSync, constants, statSync } from 'node:fs';
import { composePlugins, type Plugins } from './compose-plugins.js';
import { LOOPBACK_HOSTS, OptionError, refuseUnknownTimingModels, resolveOptions } from './config.js';
import type { EmulatorHost } from './emulator-host.js';
import type { EmulatorOptions } from './emulator-options.js';
import { emulatorLifetime, type PlaneAccess } from './emulator-lifetime.js';
import type { Emulator } from './emulator-types.js';
import { type Catalogue, parseCatalogue } from './domain/catalogue.js';
import { parseDuration } from './domain/durations.js';
import type { Runtime } from './domain/runtime.js';
import { planeGuard } from './emulation/admin/plane-guard.js';
import { type PlaneSettings, resolvePlaneOptions } from './emulation/plane-options.js';
import { CONSOLE_PATH_OPTIONS, consoleRoutes } from './emulation/console/console-routes.js';
import './emulation/faults/pattern-engine-node.js';
import { nodeScenarioShelf } from './emulation/scenarios/scenario-files.js';
import { buildApp } from './http/app.js';
import { bodyReading } from './http/node/node-body.js';
import { nodeListener } from './http/node/node-listener.js';
import type { RouteEntry } from './http/front-door.js';
import type { ExchangeHooks, Pipeline } from './http/pipeline.js';
import type { RequestListener } from './http-shapes.js';
import { createRenderer, RendererStartAborted } from './infra/create-renderer.js';
import type { Renderer } from './infra/renderer.js';
import { nodeHost } from './node-host.js';
import { OPENAPI_PATH_OPTIONS, openapiRoute } from './openapi/openapi-route.js';
import { applyCalibration } from './verify/calibration.js';
import { SEEDED_ACCOUNT_ID } from './wiring/build-context.js';
import { buildWorld, pluginAnswers, type SharedParts } from './world-factory.js';
import { composeSandboxes, type Sandboxes } from './sandboxes/compose-sandboxes.js';

/** What only the composition's callers in this repository pass: the environment the CLI read, test hooks. */
export interface CompositionExtras {
  /** PATH to search for ffmpeg; read from the environment by src/cli/environment.ts. */
  searchPath?: string;
  /** The environment ffmpeg runs with; read by src/cli/environment.ts. */
  childEnvironment?: Record<string, string | undefined>;
  /** Hooks before the plugins' in every phase (the test suite's contract checker). */
  first?: ExchangeHooks[];
  /** Host services in place of Node's (src/node-host.ts): another host's, or a test's store or upload store. */
  host?: Partial<EmulatorHost>;
  /** Real host time, which sandboxes' idle TTLs are measured on; default Date.now (a test moves it). */
  realNow?: () => number;
}

function loadAnyCatalogue(source: EmulatorOptions['catalogue'], host: EmulatorHost): Catalogue {
  if (source === undefined || typeof source === 'string') return host.readCatalogue(source);
  return parseCatalogue(source, 'catalogue option');
}

/** The renderer makes its work directory there after start; a missing one would fail then, with no caller to tell. */
function refuseUnusableStorageDir(dir: string | undefined): void {
  if (dir === undefined) return;
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a folder');
    accessSync(dir, constants.W_OK);
  } catch {
    throw new OptionError(
      `storageDir: ${dir} is not a folder the emulator can write to; create it or leave storageDir out.`,
    );
  }
}

function largestUpload(catalogue: Catalogue): number {
  return Math.max(1, ...catalogue.models.map((m) => m.reference_inputs?.max_bytes ?? 0));
}

/** createEmulator() for this repository's own callers (src/testing.ts): the emulator and the runtime behind it. */
export function composeEmulator(
  given: EmulatorOptions = {},
  extras: CompositionExtras = {},
): { emulator: Emulator; runtime: Runtime; routes: readonly RouteEntry[]; pipeline: Pipeline } {
  const calibrated = applyCalibration(given);
  const planeOptions = resolvePlaneOptions(calibrated.options);
  const options: PlaneSettings = { ...resolveOptions(calibrated.options), ...planeOptions };
  const host: EmulatorHost = { ...nodeHost(), ...extras.host };
  const catalogue = loadAnyCatalogue(options.catalogue, host);
  refuseUnknownTimingModels(options.timingByModel, catalogue);
  refuseUnusableStorageDir(options.storageDir);
  let renderer: Renderer | undefined;
  const access: PlaneAccess = {
    adminToken: options.adminToken || undefined,
    allowedHosts: new Set<string>([...LOOPBACK_HOSTS, ...options.allowedHosts]),
  };
  if (options.publicBaseUrl) access.allowedHosts.add(new URL(options.publicBaseUrl).hostname.toLowerCase());
  // The plugins are built from the world, and each world's runtime consults the plane's plan adjuster and reset
  // listener: they are looked up when called, so neither needs the other to exist first.
  let plugins: Plugins | undefined;
  let sandboxes: Sandboxes | undefined;

  // Started once construction has succeeded (or when a start-up scenario needs it), so a refused start makes no temp dir.
  let rendererPromise: Promise<Renderer> | undefined;
  // Aborted by close() (see LifetimeParts.starting).
  const starting = new AbortController();
  const startRenderer = (): Promise<Renderer> =>
    (rendererPromise ??= createRenderer({
      signal: starting.signal,
      ffmpegPath: options.ffmpegPath === '' ? undefined : options.ffmpegPath,
      searchPath: extras.searchPath,
      childEnvironment: extras.childEnvironment,
      maxParallel: options.maxParallelRenders || undefined,
      renderTimeoutMs: parseDuration(options.renderTimeout, 'renderTimeout'),
      workDir: options.storageDir,
      maxStoreBytes: options.maxStoreBytes,
      now: () => runtime.context().clock.now(),
      log: options.log,
    }).then((r) => (renderer = r)));

  const shared: SharedParts = {
    host,
    catalogue,
    startRenderer,
    currentRenderer: () => renderer,
    ...pluginAnswers(() => plugins),
  };
  // The default world: every request acts on it unless the registry of sandboxes resolves another one.
  const settings = {
    publicBaseUrl: options.publicBaseUrl,
    maxUploadBytes: largestUpload(catalogue),
    inflatedLength: host.inflatedLength,
    recordedModels: calibrated.recordedModels,
  };
  const { world, runtime, keptSecret, uploadBlobs } = buildWorld(
    {
      id: 'default',
      options,
      settings,
      meta: () => plugins?.store,
      // The render cache is shared: while sandboxes live, their files stay (they expire as any file does).
      clearRenders: () => !sandboxes?.registry.size,
    },
    shared,
  );
  plugins = composePlugins(
    { options, catalogue, rendererInfo: () => renderer?.info },
    world,
    {
      ...planeOptions,
      scenario: calibrated.options.scenario,
      scenarios: nodeScenarioShelf,
      console: { routes: consoleRoutes(), pathOptions: CONSOLE_PATH_OPTIONS },
    },
    host.openStore,
  );
  const { plane, store, inOrder } = plugins;
  sandboxes = composeSandboxes({
    options,
    catalogue,
    shared,
    plugins,
    defaultWorld: world,
    settings,
    realNow: extras.realNow ?? Date.now,
  });
  const { pipeline, frontDoor } = buildApp({
    routes: [
      ...inOrder.flatMap((p) => p.routes ?? []),
      openapiRoute({
        errorStatuses: options.errorStatuses,
        contributions: () => Promise.all(inOrder.flatMap((p) => (p.openapi ? [p.openapi()] : []))),
      }),
    ],
    pathOptions: Object.assign({}, OPENAPI_PATH_OPTIONS, ...inOrder.map((p) => p.pathOptions)),
    world: sandboxes.resolve,
    // The plane guard first (Host, Origin, admin token on the canonical path), then CORS, so a browser's preflight is
    // answered before auth, faults or the journal can refuse or count it.
    guard: planeGuard({
      adminToken: () => access.adminToken,
      allowedHosts: () => access.allowedHosts,
      controlOrigins: options.controlCorsOrigins,
    }),
    corsOrigins: options.corsOrigins,
    controlCorsOrigins: options.controlCorsOrigins,
    hooks: [...(extras.first ?? []), ...inOrder.flatMap((p) => p.hooks ?? [])],
    errorStatuses: Object.assign({}, ...inOrder.map((p) => p.errorStatuses), options.errorStatuses),
    errorCodes: options.errorCodes,
    log: options.log,
  });
  // Node's host: bodies read within the body timeout, under the cap on bytes held at once.
  const app = nodeListener(
    pipeline,
    bodyReading({
      bodyTimeoutMs: parseDuration(options.bodyTimeout, 'bodyTimeout'),
      maxBufferedBodyBytes: options.maxBufferedBodyBytes,
    }),
  );

  const lifetime = emulatorLifetime({
    app,
    options,
    access,
    runtime,
    store,
    keptSecret,
    starting,
    renderer: () => rendererPromise,
    uploadBlobs,
    worlds: sandboxes,
  });

  try {
    plane.start(world);
  } catch (error) {
    // createEmulator fails: release what it already started (the renderer's work directory).
    lifetime.abandon();
    throw error;
  }
  const ready = startRenderer().then(
    () => undefined,
    (error: unknown) => {
      // Closed before the renderer was ready: nothing failed, there is just nothing left to be ready for.
      if (!(error instanceof RendererStartAborted)) throw error;
    },
  );
  const emulator: Emulator = {
    // Node's request listener; the public type says so by shape only (src/http-shapes.ts).
    app: app as RequestListener,
    options,
    catalogue,
    ready,
    apiKey: options.apiKey,
    accountId: SEEDED_ACCOUNT_ID,
    rendererInfo: () => renderer?.info,
    advance: runtime.advance,
    settle: runtime.settle,
    reset: runtime.reset,
    control: plane.control(world),
    start: lifetime.start,
    adminToken: () => access.adminToken,
    listen: lifetime.listen,
    close: lifetime.close,
  };
  for (const note of calibrated.notes) options.log(`calibration: ${note}`);
  return { emulator, runtime, routes: frontDoor.entries, pipeline };
}

/** One emulator, not started: `start()` opens its store of record (and listens), `close()` stops it. */
export function createEmulator(given: EmulatorOptions = {}, extras: CompositionExtras = {}): Emulator {
  return composeEmulator(given, extras).emulator;
}
