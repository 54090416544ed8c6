// The registry of sandboxes: worlds beside the default one, each built by the same function, bounded and expiring.
import type { ResolvedOptions } from '../config.js';
import type { Catalogue } from '../domain/catalogue.js';
import { bytesToHex } from '../infra/byte-text.js';
import { PlaneError } from '../emulation/error-codes.js';
import type { SandboxCreated, SandboxDirectory, SandboxView } from '../emulation/sandboxes/sandbox-directory.js';
import { DEFAULT_TTL_SECONDS, type SandboxSpec } from '../emulation/sandboxes/sandbox-schema.js';
import type { World } from '../http/world.js';
import type { StoreOfRecord } from '../store/store-of-record.js';
import type { BuiltWorld } from '../world-factory.js';
import { sandboxOptions } from './sandbox-options.js';

/** A sandbox as the registry holds it. */
export interface SandboxEntry {
  readonly id: string;
  readonly label: string | null;
  readonly apiKey: string;
  readonly token: string;
  readonly spec: SandboxSpec;
  /** Real host time, ms. */
  readonly createdAt: number;
  readonly ttlSeconds: number;
  /** Real host time of its last request, ms: it expires `ttlSeconds` after. */
  lastUsed: number;
  readonly built: BuiltWorld;
  readonly store: StoreOfRecord;
}

/** What a sandbox's row in the store's `worlds` table holds: enough to build it again at a restart. */
interface KeptSandbox {
  id: string;
  label: string | null;
  apiKey: string;
  token: string;
  spec: SandboxSpec;
  createdAt: number;
  ttlSeconds: number;
}

export interface RegistryDeps {
  options: ResolvedOptions;
  catalogue: Catalogue;
  /** The default world, whose keys a sandbox's may not repeat. */
  defaultWorld(): World;
  /** Real host time (a sandbox's own clock may be frozen): idle TTLs are measured on it. */
  realNow(): number;
  randomBytes(length: number): Uint8Array;
  /** Builds a world with the plugins' parts and its rows in the store; `kept` when its rows are there already. */
  makeWorld(id: string, options: ResolvedOptions): { built: BuiltWorld; store: StoreOfRecord };
  /** The store's list of kept sandboxes, and how one is kept (undefined: the store keeps none, e.g. before start). */
  kept: Pick<StoreOfRecord, 'keptWorlds' | 'keepWorld'>;
  log(line: string): void;
}

export interface SandboxRegistry extends SandboxDirectory {
  /** The live sandbox with this id (an expired one is removed here), or undefined. */
  find(id: string): SandboxEntry | undefined;
  /** The live sandbox whose control token this is. */
  byToken(token: string): SandboxEntry | undefined;
  /** The live sandbox whose world holds this API key secret. */
  byKey(secret: string): SandboxEntry | undefined;
  /** A request reached it: its idle TTL starts again. */
  touch(entry: SandboxEntry): void;
  readonly size: number;
  /** Builds the sandboxes the store keeps, each from its rows (start-up). */
  restore(): Promise<void>;
  /** Removes every expired sandbox (the sweep timer). */
  sweep(): void;
  /** Stops every sandbox's world (close): their rows stay, written by the store's last commit. */
  close(): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function sandboxRegistry(deps: RegistryDeps): SandboxRegistry {
  const byId = new Map<string, SandboxEntry>();
  const byTokenIndex = new Map<string, SandboxEntry>();
  /** Secrets found in a sandbox's world: checked again on each use, since a reset or a revocation may change it. */
  const keyIndex = new Map<string, SandboxEntry>();
  const random = (bytes: number) => bytesToHex(deps.randomBytes(bytes));

  const view = (entry: SandboxEntry): SandboxView => ({
    id: entry.id,
    label: entry.label,
    apiKey: entry.apiKey,
    createdAt: iso(entry.createdAt),
    expiresAt: iso(entry.lastUsed + entry.ttlSeconds * 1000),
    ttlSeconds: entry.ttlSeconds,
  });

  const expired = (entry: SandboxEntry) => deps.realNow() >= entry.lastUsed + entry.ttlSeconds * 1000;

  /** Out of every index at once (its key answers 401 from here on); its world is stopped and its rows deleted after. */
  const forget = (entry: SandboxEntry) => {
    byId.delete(entry.id);
    byTokenIndex.delete(entry.token);
    for (const [secret, holder] of keyIndex) if (holder === entry) keyIndex.delete(secret);
  };

  const stop = async (entry: SandboxEntry, drop: boolean) => {
    const { runtime, uploadBlobs } = entry.built;
    await runtime.stop();
    if (drop) {
      entry.store.drop();
      await uploadBlobs.destroy();
    } else {
      await entry.store.close();
      await uploadBlobs.close();
    }
  };

  const discard = (entry: SandboxEntry) => {
    forget(entry);
    stop(entry, true).catch((error: unknown) =>
      deps.log(`could not remove sandbox ${entry.id}: ${(error as Error).message}`),
    );
  };

  const find = (id: string): SandboxEntry | undefined => {
    const entry = byId.get(id);
    if (entry && expired(entry)) {
      discard(entry);
      return undefined;
    }
    return entry;
  };

  const found = (id: string): SandboxEntry => {
    const entry = find(id);
    if (!entry)
      throw new PlaneError(
        'sandbox_not_found',
        `No sandbox '${id}': it never existed, was deleted, or expired after its idle TTL. Create one with POST /_emulator/sandboxes.`,
      );
    return entry;
  };

  const sweep = () => {
    for (const entry of [...byId.values()]) if (expired(entry)) discard(entry);
  };

  const checkTiming = (spec: SandboxSpec) => {
    for (const slug of Object.keys(spec.timing?.by_model ?? {}))
      if (!deps.catalogue.get(slug))
        throw new PlaneError(
          'invalid_control_request',
          `timing.by_model.${slug}: no model '${slug}' in the catalogue.`,
        );
  };

  const build = (kept: KeptSandbox, lastUsed: number): SandboxEntry => {
    const options = sandboxOptions(deps.options, kept.spec, kept.apiKey, kept.id);
    const { built, store } = deps.makeWorld(kept.id, options);
    // Object.assign, not `{ ...kept, lastUsed, ... }`: on Node 20's V8 (not 22's or 24's) a spread followed by fields gives
    // every entry a hidden class of its own after a few calls, and each site that reads entries goes megamorphic.
    const entry: SandboxEntry = Object.assign({}, kept, { lastUsed, built, store });
    byId.set(entry.id, entry);
    byTokenIndex.set(entry.token, entry);
    keyIndex.set(entry.apiKey, entry);
    return entry;
  };

  return {
    get size() {
      return byId.size;
    },
    async create(spec) {
      sweep();
      if (byId.size >= deps.options.maxSandboxes)
        throw new PlaneError(
          'sandbox_limit_reached',
          `This emulator holds ${byId.size} sandboxes, its limit: delete one (DELETE /_emulator/sandboxes/{id}), let idle ones expire, or start it with a higher --max-sandboxes (option maxSandboxes, env EMULATOR_MAX_SANDBOXES).`,
        );
      checkTiming(spec);
      const now = deps.realNow();
      const kept: KeptSandbox = {
        id: `sbx_${random(8)}`,
        label: spec.label ?? null,
        apiKey: `sk-media-sbx${random(16)}`,
        token: `sbt_${random(24)}`,
        spec,
        createdAt: now,
        ttlSeconds: spec.ttlSeconds ?? DEFAULT_TTL_SECONDS,
      };
      const entry = build(kept, now);
      try {
        entry.built.keptSecret.settle(undefined);
        entry.store.commit();
        deps.kept.keepWorld(entry.id, JSON.stringify(kept));
      } catch (error) {
        // Refused by the disk (507): the sandbox never was.
        forget(entry);
        await stop(entry, true).catch(() => undefined);
        throw error;
      }
      const created: SandboxCreated = { ...view(entry), token: entry.token };
      return created;
    },
    list: () => {
      sweep();
      return [...byId.values()].map(view);
    },
    get: (id) => view(found(id)),
    world: (id) => found(id).built.world,
    used(world) {
      // An expired sandbox is not brought back by a client that still holds it.
      const entry = find(world.name);
      if (entry?.built.world === world) entry.lastUsed = deps.realNow();
    },
    secretHeldElsewhere(secret, runtime) {
      if (deps.defaultWorld().runtime !== runtime && holds(deps.defaultWorld(), secret)) return true;
      for (const entry of byId.values())
        if (entry.built.runtime !== runtime && holds(entry.built.world, secret)) return true;
      return false;
    },
    async reset(id) {
      await found(id).built.runtime.reset();
    },
    async remove(id) {
      const entry = found(id);
      forget(entry);
      await stop(entry, true);
    },
    find,
    byToken(token) {
      const entry = byTokenIndex.get(token);
      return entry && find(entry.id);
    },
    byKey(secret) {
      const cached = keyIndex.get(secret);
      if (cached && byId.get(cached.id) === cached && holds(cached.built.world, secret)) return cached;
      if (cached) keyIndex.delete(secret);
      for (const entry of byId.values())
        if (holds(entry.built.world, secret)) {
          keyIndex.set(secret, entry);
          return entry;
        }
      return undefined;
    },
    touch(entry) {
      entry.lastUsed = deps.realNow();
    },
    sweep,
    async restore() {
      const now = deps.realNow();
      for (const { id, json } of deps.kept.keptWorlds()) {
        const entry = build(JSON.parse(json) as KeptSandbox, now);
        const keptSecret = entry.built.keptSecret.kept();
        await entry.store.open();
        entry.built.keptSecret.settle(keptSecret);
        deps.log(`sandbox ${id} restored from the state file`);
      }
    },
    async close() {
      const entries = [...byId.values()];
      byId.clear();
      byTokenIndex.clear();
      keyIndex.clear();
      await Promise.all(entries.map((entry) => stop(entry, false)));
    },
  };
}

/** The world knows this secret (revoked or not: its own 401 says which). */
const holds = (world: World, secret: string) => world.runtime.context().accounts.holdsSecret(secret);
