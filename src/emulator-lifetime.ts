// One composed emulator's start and stop: open its store of record, listen, and close everything in an order that loses nothing.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { isLoopbackHost } from './config.js';
import { type PlaneSettings, tokenForBinding } from './emulation/plane-options.js';
import { parseDuration } from './domain/durations.js';
import type { OwnedRuntime } from './domain/runtime.js';
import type { Emulator, ListenAt, Listening, Started } from './emulator-types.js';
import { listenOn } from './http/node/listen.js';
import type { NodeListener } from './http/node/node-listener.js';
import type { Renderer } from './infra/renderer.js';
import type { UploadBlobs } from './infra/upload-blobs.js';
import type { StoreOfRecord } from './store/store-of-record.js';
import type { KeptSigningSecret } from './wiring/kept-signing-secret.js';

/** Who may reach the plane: read by the plane guard on every request, widened by listen() beyond loopback. */
export interface PlaneAccess {
  adminToken: string | undefined;
  readonly allowedHosts: Set<string>;
}

export interface LifetimeParts {
  app: NodeListener;
  options: PlaneSettings;
  access: PlaneAccess;
  runtime: OwnedRuntime;
  store: StoreOfRecord;
  keptSecret: KeptSigningSecret;
  /** Aborted by close(), even while ffmpeg is still being probed: it kills the probes and drops the work dir. */
  starting: AbortController;
  /** The renderer's start, once it has begun. */
  renderer: () => Promise<Renderer> | undefined;
  uploadBlobs: UploadBlobs;
  /** The worlds beside the default one (sandboxes): back after the store opens, stopped before it closes. */
  worlds?: { restore(): Promise<void>; close(): Promise<void> };
}

export interface Lifetime extends Pick<Emulator, 'start' | 'listen' | 'close'> {
  /** The emulator's construction failed: release what it started, and write nothing over a kept state it never read. */
  abandon(): void;
}

export function emulatorLifetime(parts: LifetimeParts): Lifetime {
  const { app, options, access, runtime, store, keptSecret, uploadBlobs } = parts;
  const servers = new Set<Server>();
  // 'opening' while start() reads the store: a close then must not write a half-loaded state over the kept one.
  let storePhase: 'unopened' | 'opening' | 'open' | 'refused' = 'unopened';

  const shutDown = async () => {
    // Stop accepting, then stop the renderer (kills ffmpeg process groups, drops queued renders, removes its
    // directory) before waiting on renders, so shutdown never waits for a render to finish on its own.
    const ctx = runtime.context();
    ctx.scheduler.clear();
    ctx.lifecycle.clear();
    const closing = [...servers].map((server) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    });
    servers.clear();
    parts.starting.abort();
    await Promise.all(closing);
    const started = await parts.renderer()?.catch(() => undefined);
    await started?.close();
    await parts.worlds?.close();
    await runtime.stop();
    await uploadBlobs.close();
    // Last, so what it commits is final: nothing runs any more.
    await store.close({ write: storePhase === 'unopened' || storePhase === 'open' });
  };
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= shutDown());

  const listen = async (port = 0, host = '127.0.0.1'): Promise<Listening> => {
    // Reachable beyond loopback: never leave the plane open unless the caller said so with adminToken: false.
    access.adminToken ??= tokenForBinding(host, options.adminToken, options.controlPlane, () =>
      randomBytes(24).toString('base64url'),
    );
    if (!isLoopbackHost(host) && host !== '0.0.0.0' && host !== '::')
      access.allowedHosts.add(host.includes(':') ? `[${host}]` : host.toLowerCase());
    return listenOn(app, servers, port, host, parseDuration(options.headersTimeout, 'headersTimeout'));
  };

  const openStore = async (): Promise<boolean> => {
    if (storePhase !== 'unopened') throw new Error('start() was already called on this emulator.');
    storePhase = 'opening';
    // Read before the state is loaded: the kept secret signs again, so older links still verify.
    const kept = keptSecret.kept();
    let loaded: boolean;
    try {
      loaded = await store.open();
    } catch (error) {
      storePhase = 'refused';
      throw error;
    }
    storePhase = 'open';
    keptSecret.settle(kept);
    await parts.worlds?.restore();
    return loaded;
  };

  // Overloads: given where, the answer says where it listens.
  function start(): Promise<Started>;
  function start(at: ListenAt): Promise<Started & Listening>;
  async function start(at?: ListenAt): Promise<Started | (Started & Listening)> {
    try {
      const loaded = await openStore();
      if (closing) throw new Error('The emulator was closed while it was starting.');
      // Listen at once: renders wait for the renderer by themselves, and `ready` tells when ffmpeg was found.
      return at ? { loaded, ...(await listen(at.port, at.host)) } : { loaded };
    } catch (error) {
      // A refused start leaves nothing behind: no renderer directory under TMPDIR, no lock on the state file.
      await close();
      throw error;
    }
  }

  return {
    start,
    listen,
    close,
    abandon() {
      storePhase = 'refused';
      void close().catch(() => undefined);
    },
  };
}
