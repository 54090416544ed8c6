// The composition root: options -> infra -> runtime -> http app -> the emulation plane. The one place that wires layers.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express, RequestHandler } from 'express';
import { type EmulatorOptions, type ResolvedOptions, resolveOptions } from './config.js';
import { type Catalogue, parseCatalogue } from './domain/catalogue.js';
import { loadCatalogue } from './wiring/catalogue-file.js';
import { createRuntime, type Runtime } from './domain/runtime.js';
import type { Control } from './emulation/client.js';
import { type EmulationPlane, emulationPlane } from './emulation/plugin.js';
import { buildApp } from './http/app.js';
import { corsMiddleware } from './http/middleware/cors.js';
import { createRenderer } from './infra/create-renderer.js';
import type { Renderer, RendererInfo } from './infra/renderer.js';
import { createSigner } from './infra/signer.js';
import { openapiRoutes } from './openapi/openapi-route.js';
import { buildContext, SEEDED_ACCOUNT_ID } from './wiring/build-context.js';

/** The public face of one emulator. Its internal state is reached through `control` (or, in this repo's tests, src/testing.ts). */
export interface Emulator {
  readonly app: Express;
  readonly options: ResolvedOptions;
  readonly catalogue: Catalogue;
  /** Resolves once the renderer has found ffmpeg (or fallen back to fixtures). */
  readonly ready: Promise<void>;
  readonly apiKey: string;
  readonly accountId: string;
  rendererInfo(): RendererInfo | undefined;
  /** Moves the emulator clock forward, running due transitions in order, then waits for the renders they started. */
  advance(ms: number): Promise<void>;
  /** Waits for every render in flight. */
  settle(): Promise<void>;
  /** Everything back to the seeded state (and the start-up scenario): keys, balances, generations, idempotency, files. */
  reset(): Promise<void>;
  /** The typed control client: faults, clock, balances, keys, scenarios, journal, state (docs/control-plane.md). */
  readonly control: Control;
  listen(port?: number, host?: string): Promise<{ url: string; server: Server }>;
  close(): Promise<void>;
}

/** What only the composition's callers in this repository pass: the environment the CLI read, test middleware. */
export interface CompositionExtras {
  /** PATH to search for ffmpeg; read from the environment by src/cli/environment.ts. */
  searchPath?: string;
  /** Middleware in front of everything, even CORS (the test suite's contract checker). */
  first?: RequestHandler[];
}

/** Where src/testing.ts finds the runtime; a symbol, so it is no part of the public object's shape. */
export const RUNTIME = Symbol('media-gen-emulator.runtime');

function loadAnyCatalogue(source: EmulatorOptions['catalogue']): Catalogue {
  if (source === undefined || typeof source === 'string') return loadCatalogue(source);
  return parseCatalogue(source, 'catalogue option');
}

function largestUpload(catalogue: Catalogue): number {
  return Math.max(1, ...catalogue.models.map((m) => m.reference_inputs?.max_bytes ?? 0));
}

export function createEmulator(input: EmulatorOptions = {}, extras: CompositionExtras = {}): Emulator {
  const options = resolveOptions(input);
  const catalogue = loadAnyCatalogue(options.catalogue);
  const signer = createSigner(
    options.signingSecret ?? (options.seed !== undefined ? `seed-${options.seed}` : randomBytes(32).toString('hex')),
  );
  const servers = new Set<Server>();
  let renderer: Renderer | undefined;
  // The plane is built from the runtime, and the runtime's contexts consult the plane's plan hook: the hook and the
  // reset listener are looked up when called, so neither needs the other to exist first.
  let plane: EmulationPlane | undefined;

  const rendererPromise = createRenderer({
    ffmpegPath: options.ffmpegPath === '' ? undefined : options.ffmpegPath,
    searchPath: extras.searchPath,
    maxParallel: options.maxParallelRenders || undefined,
    workDir: options.storageDir,
    maxStoreBytes: options.maxStoreBytes,
    now: () => runtime.context().clock.now(),
    log: options.log,
  }).then((r) => (renderer = r));

  const runtime = createRuntime({
    accountId: SEEDED_ACCOUNT_ID,
    build: (seeded) =>
      buildContext({
        options,
        catalogue,
        signer,
        renderer: () => rendererPromise,
        currentRenderer: () => renderer,
        planHook: (input) => plane?.planHook?.(input),
        seeded,
      }),
    clearFiles: async () => {
      await renderer?.clear();
    },
    afterReset: () => plane?.afterReset?.(),
  });

  const setup = { runtime, options, catalogue, rendererInfo: () => renderer?.info };
  plane = emulationPlane(setup);
  const app = buildApp({
    routes: {
      ctx: runtime.context,
      renderer: () => renderer,
      signer: () => signer,
      publicBaseUrl: options.publicBaseUrl,
      maxUploadBytes: largestUpload(catalogue),
    },
    errorStatuses: options.errorStatuses,
    log: options.log,
    // CORS first, so a browser's preflight is answered before auth, faults or the journal can refuse or count it.
    before: [...(extras.first ?? []), corsMiddleware(options.corsOrigins), ...(plane.middleware ?? [])],
    extra: [
      ...(plane.routes ?? []),
      openapiRoutes({
        errorStatuses: options.errorStatuses,
        contributions: async () => (plane?.openapi ? [await plane.openapi()] : []),
      }),
    ],
  });

  const close = async () => {
    await runtime.stop();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    servers.clear();
    await runtime.settle();
    await (await rendererPromise).close();
  };

  const emulator: Emulator & { [RUNTIME]: Runtime } = {
    app,
    options,
    catalogue,
    ready: rendererPromise.then(() => undefined),
    apiKey: options.apiKey,
    accountId: SEEDED_ACCOUNT_ID,
    rendererInfo: () => renderer?.info,
    advance: runtime.advance,
    settle: runtime.settle,
    reset: runtime.reset,
    control: plane.control,
    async listen(port = 0, host = '127.0.0.1') {
      const server = createServer(app);
      servers.add(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      const address = server.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      return { url: `http://${shownHost}:${address.port}`, server };
    },
    close,
    [RUNTIME]: runtime,
  };
  try {
    plane.start();
  } catch (error) {
    // createEmulator fails: release what it already started (the renderer's work directory).
    void close().catch(() => undefined);
    throw error;
  }
  return emulator;
}
