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
import { createRuntime, type Runtime } from './domain/runtime.js';
import { planeGuard } from './emulation/admin/plane-guard.js';
import { CONSOLE_PATH_OPTIONS, consoleRoutes } from './emulation/console/console-routes.js';
import { nodeScenarioShelf } from './emulation/scenarios/scenario-files.js';
import type { PlanAdjuster } from './domain/context.js';
import { buildApp } from './http/app.js';
import { bodyReading } from './http/node/node-body.js';
import { nodeListener } from './http/node/node-listener.js';
import type { RouteEntry } from './http/front-door.js';
import type { ExchangeHooks, Pipeline } from './http/pipeline.js';
import { World } from './http/world.js';
import type { RequestListener } from './http-shapes.js';
import { createRenderer, RendererStartAborted } from './infra/create-renderer.js';
import type { Renderer } from './infra/renderer.js';
import { createSigner, createSigningSecret } from './infra/signer.js';
import { nodeHost } from './node-host.js';
import { OPENAPI_PATH_OPTIONS, openapiRoute } from './openapi/openapi-route.js';
import { applyCalibration } from './verify/calibration.js';
import { buildContext, SEEDED_ACCOUNT_ID } from './wiring/build-context.js';
import { keptSigningSecret } from './wiring/kept-signing-secret.js';

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
  const options = resolveOptions(calibrated.options);
  const host: EmulatorHost = { ...nodeHost(), ...extras.host };
  const catalogue = loadAnyCatalogue(options.catalogue, host);
  refuseUnknownTimingModels(options.timingByModel, catalogue);
  refuseUnusableStorageDir(options.storageDir);
  // Links signed before a reset or an import must answer 403 after it: the ids they name may now be another's.
  const signingSecret = createSigningSecret(options.signingSecret, host.crypto);
  const signer = createSigner(signingSecret, host.crypto);
  const keptSecret = keptSigningSecret(signingSecret, {
    fixed: options.signingSecret !== undefined,
    meta: () => plugins?.store,
    log: options.log,
  });
  let renderer: Renderer | undefined;
  const access: PlaneAccess = {
    adminToken: options.adminToken || undefined,
    allowedHosts: new Set<string>([...LOOPBACK_HOSTS, ...options.allowedHosts]),
  };
  if (options.publicBaseUrl) access.allowedHosts.add(new URL(options.publicBaseUrl).hostname.toLowerCase());
  // The plugins are built from the world, and the world's runtime consults the plane's plan adjuster: it and the
  // reset listener are looked up when called, so neither needs the other to exist first.
  let plugins: Plugins | undefined;
  let adjuster: PlanAdjuster | undefined;

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

  const uploadBlobs = host.uploadBlobs(options);

  const runtime = createRuntime({
    accountId: SEEDED_ACCOUNT_ID,
    build: (seeded) =>
      buildContext({
        options,
        catalogue,
        signer,
        crypto: host.crypto,
        parallelism: host.parallelism,
        renderer: startRenderer,
        uploadBytes: (id) => uploadBlobs.read(id),
        currentRenderer: () => renderer,
        // One plugin scripts generations: the plane (a second adjuster would need an order of its own).
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

  // The default world: the one every request acts on until a registry of worlds resolves them at the front door.
  const world = new World('default', runtime, signer, uploadBlobs, {
    publicBaseUrl: options.publicBaseUrl,
    maxUploadBytes: largestUpload(catalogue),
    inflatedLength: host.inflatedLength,
    recordedModels: calibrated.recordedModels,
  });
  plugins = composePlugins(
    { options, catalogue, rendererInfo: () => renderer?.info },
    world,
    {
      scenario: calibrated.options.scenario,
      scenarios: nodeScenarioShelf,
      console: { routes: consoleRoutes(), pathOptions: CONSOLE_PATH_OPTIONS },
    },
    host.openStore,
  );
  const { plane, store, inOrder } = plugins;
  adjuster = plane.planAdjuster?.(world);
  const { pipeline, frontDoor } = buildApp({
    routes: [
      ...inOrder.flatMap((p) => p.routes ?? []),
      openapiRoute({
        errorStatuses: options.errorStatuses,
        contributions: () => Promise.all(inOrder.flatMap((p) => (p.openapi ? [p.openapi()] : []))),
      }),
    ],
    pathOptions: Object.assign({}, OPENAPI_PATH_OPTIONS, ...inOrder.map((p) => p.pathOptions)),
    world: () => world,
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
