// The store of record as a plugin: what it opens, the handle and hooks it installs in its world and in another one
// (a sandbox's rows in the same database), and its own error code.
import { afterEach, describe, expect, it } from 'vitest';
import type { ResolvedOptions } from '../../../src/config.js';
import type { Exchange } from '../../../src/http/exchange.js';
import { World, type WorldSettings } from '../../../src/http/world.js';
import type { Emulator } from '../../../src/index.js';
import { nobleCrypto } from '../../../src/infra/noble-crypto.js';
import { createSigner } from '../../../src/infra/signer.js';
import { createMemoryUploadBlobs } from '../../../src/infra/upload-blobs.js';
import type { DocumentDeps } from '../../../src/store/state-document.js';
import { storeOfRecordOver } from '../../../src/store/store-of-record.js';
import { type StoreSetup, storePlugin } from '../../../src/store/store-plugin.js';
import { createEmulatorWith, runtimeOf } from '../../../src/testing.js';
import { type KeptState, STORE_HANDLE } from '../../../src/wiring/kept-state.js';
import { SQL_DRIVERS } from '../../helpers/sql-drivers.js';

const driver = SQL_DRIVERS[0];
const emulators: Emulator[] = [];
afterEach(async () => {
  for (const emulator of emulators.splice(0)) await emulator.close();
  driver.cleanUp();
});

/** A world of its own: a live emulator's runtime (its own store is not the one under test), new upload bytes. */
function aWorld(name: string): World {
  const emulator = createEmulatorWith({ seed: 1, timing: 'manual', ffmpegPath: false });
  emulators.push(emulator);
  return new World(
    name,
    runtimeOf(emulator),
    createSigner('a signing secret', nobleCrypto),
    createMemoryUploadBlobs({ maxBytes: 1_000_000 }),
    {} as WorldSettings,
  );
}

/** A change in a world's memory: a funding of its seeded account. */
const fund = (world: World, amount: number) => {
  const ctx = world.runtime.context();
  ctx.ledger.append({ type: 'funding', accountId: world.runtime.accountId, amount, at: ctx.clock.now() });
};
const balance = (world: World) => world.runtime.context().ledger.balance(world.runtime.accountId);

/** The plugin over a new database, its parts installed in `world` as the composition root installs them. */
async function plugged() {
  const raw = await driver.store();
  const world = aWorld('default');
  const options = { seed: 1 } as ResolvedOptions;
  const kept: KeptState = { sections: [] };
  const opened: { deps: DocumentDeps; options: ResolvedOptions }[] = [];
  const setup = { options, runtime: world.runtime, uploadBlobs: world.uploadBlobs } as StoreSetup;
  const plugin = storePlugin(setup, kept, (deps, given) => {
    opened.push({ deps, options: given });
    return storeOfRecordOver(raw, deps, { persistent: false, log: () => {}, defer: setImmediate });
  });
  for (const part of plugin.worldParts ?? []) world.install(part.key, part.make(world));
  await plugin.store.open();
  plugin.store.commit();
  const ledgerRows = (name = 'default') => (name === 'default' ? raw : raw.forWorld(name)).documents('ledger').length;
  return { raw, world, options, kept, opened, plugin, ledgerRows };
}

/** An exchange of `world` through the plugin's hooks: `before` as it begins, then its answer at the gate. */
async function exchange(plugin: Awaited<ReturnType<typeof plugged>>['plugin'], world: World, change: () => void) {
  const [hooks] = plugin.hooks ?? [];
  const x = { world, dispatch: { mutates: true } } as unknown as Exchange;
  await hooks.before?.(x);
  change();
  const answer = hooks.gate?.(x, { status: 200, headers: {} });
  expect(answer).toBeInstanceOf(Promise);
  return answer;
}

describe('the store plugin', () => {
  it('opens its store over the world’s runtime, upload bytes and kept sections, with the emulator’s options', async () => {
    const { opened, world, options, kept } = await plugged();
    expect(opened).toHaveLength(1);
    const [{ deps, options: given }] = opened;
    expect(given).toBe(options);
    expect(deps.runtime).toBe(world.runtime);
    expect(deps.uploadBlobs).toBe(world.uploadBlobs);
    expect(deps.kept).toBe(kept);
  });

  it('installs a handle that commits the world’s changes, exports its state and imports a document', async () => {
    const { world, ledgerRows } = await plugged();
    const handle = world.part(STORE_HANDLE);
    const rows = ledgerRows();
    const document = handle.exportState();
    expect(document.domain.ledger).toHaveLength(rows);
    const before = balance(world);
    fund(world, 5);
    handle.commit();
    expect([ledgerRows(), balance(world)]).toEqual([rows + 1, before + 5]);
    await handle.importState(JSON.parse(JSON.stringify(document)));
    expect(balance(world)).toBe(before);
    handle.commit();
    expect(ledgerRows()).toBe(rows);
  });

  it('holds a change’s answer in its world until the group commit has written it', async () => {
    const { plugin, world, ledgerRows } = await plugged();
    const rows = ledgerRows();
    const answer = await exchange(plugin, world, () => fund(world, 5));
    expect(answer).toBeUndefined();
    expect(ledgerRows()).toBe(rows + 1);
  });

  it('gives another world its own rows in the same database, its own handle and hooks', async () => {
    const { plugin, world, ledgerRows } = await plugged();
    const sandbox = aWorld('sbx_1');
    const sandboxStore = plugin.attach(sandbox, { sections: [] });
    expect(await sandboxStore.open()).toBe(false);
    const handle = sandbox.part(STORE_HANDLE);
    handle.commit();
    const [mine, theirs] = [ledgerRows(), ledgerRows('sbx_1')];
    expect(theirs).toBeGreaterThan(0);
    fund(sandbox, 7);
    handle.commit();
    expect(handle.exportState().domain.ledger).toHaveLength(theirs + 1);
    expect(world.part(STORE_HANDLE).exportState().domain.ledger).toHaveLength(mine);
    expect(await exchange(plugin, sandbox, () => fund(sandbox, 3))).toBeUndefined();
    expect([ledgerRows(), ledgerRows('sbx_1')]).toEqual([mine, theirs + 2]);
    await handle.importState(JSON.parse(JSON.stringify(world.part(STORE_HANDLE).exportState())));
    expect(balance(sandbox)).toBe(balance(world));
  });

  it('names what is missing when an exchange comes from a world it was never attached to', async () => {
    const { plugin } = await plugged();
    const [hooks] = plugin.hooks ?? [];
    const x = { world: aWorld('sbx_9'), dispatch: { mutates: true } } as unknown as Exchange;
    expect(() => hooks.before?.(x)).toThrow('world sbx_9: no the store of record hooks (its plugin is not composed)');
  });

  it('registers its own refusal: a kept state not loaded yet is a 409', async () => {
    const { plugin } = await plugged();
    expect(plugin.errorStatuses).toEqual({ state_not_loaded: 409 });
  });
});
