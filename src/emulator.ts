// createEmulator: the one place that wires config, infra, domain and http together. Nothing here is module-level state.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express, RequestHandler, Router } from 'express';
import { buildContext, SEEDED_ACCOUNT_ID } from './wiring/build-context.js';
import { resolveOptions, type EmulatorOptions, type ResolvedOptions } from './config.js';
import type { Control } from './emulation/client.js';
import { loadCatalogue, parseCatalogue, type Catalogue } from './domain/catalogue.js';
import type { DomainContext, PlanHook } from './domain/context.js';
import { LAST_INSTANT_MS } from './domain/durations.js';
import { DomainError } from './domain/errors.js';
import { buildApp } from './http/app.js';
import type { RouteDeps } from './http/routes/deps.js';
import { healthRoutes } from './emulation/admin/health-routes.js';
import { createRenderer } from './infra/create-renderer.js';
import type { Renderer, RendererInfo } from './infra/renderer.js';
import { createSigner } from './infra/signer.js';

export interface Emulator {
  readonly app: Express;
  readonly options: ResolvedOptions;
  readonly catalogue: Catalogue;
  /** Resolves once the renderer has found ffmpeg (or fallen back to fixtures). */
  readonly ready: Promise<void>;
  readonly apiKey: string;
  readonly accountId: string;
  /** The current domain state; replaced by reset(). */
  context(): DomainContext;
  rendererInfo(): RendererInfo | undefined;
  /** Moves the emulator clock forward, running due transitions in order, then waits for the renders they started. */
  advance(ms: number): Promise<void>;
  /** Waits for every render in flight. */
  settle(): Promise<void>;
  /** Everything back to the seeded state: keys, balances, generations, idempotency, files. */
  reset(): Promise<void>;
  /** Swaps in a blank context (no seeded account, key or balance) filled by `fill`: state import. Files are kept. */
  restore(fill: (ctx: DomainContext) => void): Promise<void>;
  /** The typed control client, when an extension provides one (standardExtensions does). */
  readonly control?: Control;
  listen(port?: number, host?: string): Promise<{ url: string; server: Server }>;
  close(): Promise<void>;
}

/** Hooks later layers (control plane, faults, CORS, console) plug into without touching the core wiring. */
export interface EmulatorExtensions {
  before?: (emulator: Emulator) => RequestHandler[];
  extra?: (emulator: Emulator) => Router[];
  planHook?: (emulator: Emulator) => PlanHook;
  onReset?: (emulator: Emulator) => void;
  /** Called once the emulator is wired: the in-process control client exposed as `emulator.control`. */
  control?: (emulator: Emulator) => Control;
}

function loadAnyCatalogue(source: EmulatorOptions['catalogue']): Catalogue {
  if (source === undefined || typeof source === 'string') return loadCatalogue(source);
  return parseCatalogue(source, 'catalogue option');
}

function largestUpload(catalogue: Catalogue): number {
  return Math.max(1, ...catalogue.models.map((m) => m.reference_inputs?.max_bytes ?? 0));
}

export function createEmulator(input: EmulatorOptions = {}, extensions: EmulatorExtensions = {}): Emulator {
  const options = resolveOptions(input);
  const catalogue = loadAnyCatalogue(options.catalogue);
  const signer = createSigner(
    options.signingSecret ?? (options.seed !== undefined ? `seed-${options.seed}` : randomBytes(32).toString('hex')),
  );
  let context: DomainContext;
  let renderer: Renderer | undefined;
  const servers = new Set<Server>();

  const rendererPromise = createRenderer({
    ffmpegPath: options.ffmpegPath === '' ? undefined : options.ffmpegPath,
    maxParallel: options.maxParallelRenders || undefined,
    workDir: options.storageDir,
    maxStoreBytes: options.maxStoreBytes,
    now: () => context.clock.now(),
    log: options.log,
  }).then((r) => (renderer = r));

  const fresh = (seeded = true) =>
    buildContext({
      options,
      catalogue,
      signer,
      renderer: () => rendererPromise,
      currentRenderer: () => renderer,
      planHook: extensions.planHook?.(emulator),
      seeded,
    });

  const routes: RouteDeps = {
    ctx: () => context,
    renderer: () => renderer,
    signer: () => signer,
    publicBaseUrl: options.publicBaseUrl,
    maxUploadBytes: largestUpload(catalogue),
  };

  const emulator: Emulator = {
    app: undefined as unknown as Express,
    options,
    catalogue,
    ready: rendererPromise.then(() => undefined),
    apiKey: options.apiKey,
    accountId: SEEDED_ACCOUNT_ID,
    context: () => context,
    rendererInfo: () => renderer?.info,
    async advance(ms) {
      // Step from one due time to the next and let the renders each step starts finish before time moves on,
      // so completed_at is the planned instant however a test splits its advances.
      const ctx = context;
      const target = ctx.clock.now() + Math.max(0, ms);
      if (target > LAST_INSTANT_MS)
        throw new DomainError(
          'invalid_duration',
          'This advance would move the clock past 9999-12-31T23:59:59Z, the last instant the service can write; advance by less.',
        );
      for (
        let next = ctx.scheduler.nextDueAt();
        next !== undefined && next <= target;
        next = ctx.scheduler.nextDueAt()
      ) {
        ctx.scheduler.advance(Math.max(0, next - ctx.clock.now()));
        await ctx.lifecycle.settle();
      }
      ctx.scheduler.advance(Math.max(0, target - ctx.clock.now()));
      await ctx.lifecycle.settle();
    },
    settle: () => context.lifecycle.settle(),
    async reset() {
      context.scheduler.clear();
      context.lifecycle.clear();
      await context.lifecycle.settle();
      await renderer?.clear();
      context = fresh();
      extensions.onReset?.(emulator);
    },
    async restore(fill) {
      // Fill first: a snapshot that fails half-way leaves the running state untouched.
      const next = fresh(false);
      try {
        fill(next);
      } catch (error) {
        next.scheduler.clear();
        next.lifecycle.clear();
        throw error;
      }
      context.scheduler.clear();
      context.lifecycle.clear();
      await context.lifecycle.settle();
      context = next;
    },
    async listen(port = 0, host = '127.0.0.1') {
      const server = createServer(emulator.app);
      servers.add(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      const address = server.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      return { url: `http://${shownHost}:${address.port}`, server };
    },
    async close() {
      context.scheduler.clear();
      context.lifecycle.clear();
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      servers.clear();
      await context.lifecycle.settle();
      await (await rendererPromise).close();
    },
  };
  context = fresh();
  (emulator as { app: Express }).app = buildApp({
    routes,
    errorStatuses: options.errorStatuses,
    log: options.log,
    before: extensions.before?.(emulator),
    extra: [healthRoutes(emulator), ...(extensions.extra?.(emulator) ?? [])],
  });
  (emulator as { control?: Control }).control = extensions.control?.(emulator);
  return emulator;
}
