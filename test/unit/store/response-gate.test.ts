// The response gate: which answers wait for the group commit, which go out at once, and what each gets when it fails.
import { describe, expect, it } from 'vitest';
import { type CodedError, DomainError } from '../../../src/domain/errors.js';
import type { Exchange, ServiceResponse } from '../../../src/http/exchange.js';
import { createResponseGate, type GateWorld } from '../../../src/store/response-gate.js';
import { StoreError } from '../../../src/store/store-errors.js';

interface FakeWorld extends GateWorld {
  name: string;
  epoch: number;
  restoring: boolean;
  closed: boolean;
  changed: boolean;
}

const world = (name: string): FakeWorld => ({
  name,
  epoch: 0,
  restoring: false,
  closed: false,
  changed: true,
  nothingToWrite() {
    return !this.changed;
  },
});

/** An exchange as the gate sees it: whether its route may change state. */
const exchange = (mutates: boolean) => ({ dispatch: { mutates } }) as unknown as Exchange;

function harness(options: { errorStatuses?: Record<string, number>; errorCodes?: Record<string, string> } = {}) {
  const commits: string[][] = [];
  const logged: string[] = [];
  let refuse: (worlds: readonly FakeWorld[]) => ReadonlyMap<FakeWorld, CodedError> = () => new Map();
  let scheduled: (() => void) | undefined;
  let closed = false;
  const gate = createResponseGate<FakeWorld>({
    commit: (worlds) => {
      commits.push(worlds.map((w) => w.name));
      return refuse(worlds);
    },
    closed: () => closed,
    defer: (settle) => {
      scheduled = settle;
    },
    log: (line) => logged.push(line),
    ...options,
  });
  /** Runs an exchange through the gate: `before` when it begins, `gate` when its answer is ready. */
  const through = (w: FakeWorld, mutates: boolean) => {
    const x = exchange(mutates);
    const hooks = gate.hooks(w);
    hooks.before(x);
    return () => hooks.gate(x, { status: 200, headers: {} });
  };
  const runCommit = () => {
    const settle = scheduled;
    scheduled = undefined;
    settle?.();
  };
  return {
    gate,
    commits,
    logged,
    through,
    runCommit,
    scheduled: () => scheduled !== undefined,
    refuseWith: (f: typeof refuse) => {
      refuse = f;
    },
    close: () => {
      closed = true;
    },
  };
}

const answer = (response: ServiceResponse | undefined) =>
  response && { status: response.status, body: JSON.parse(response.body as string) };

describe('the response gate', () => {
  it('holds a change’s answer until the group commit, then lets it go as it is', async () => {
    const h = harness();
    const a = world('a');
    const waiting = h.through(a, true)();
    expect(waiting).toBeInstanceOf(Promise);
    expect(h.commits).toEqual([]);
    h.runCommit();
    expect(await waiting).toBeUndefined();
    expect(h.commits).toEqual([['a']]);
  });

  it('commits the worlds whose answers end in one turn together, once', async () => {
    const h = harness();
    const [a, b] = [world('a'), world('b')];
    const answers = [h.through(a, true)(), h.through(b, true)(), h.through(a, true)()];
    h.runCommit();
    expect(await Promise.all(answers)).toEqual([undefined, undefined, undefined]);
    expect(h.commits).toEqual([['a', 'b']]);
  });

  it('lets a change that changed nothing go at once, with no commit', () => {
    const h = harness();
    const a = world('a');
    a.changed = false;
    expect(h.through(a, true)()).toBeUndefined();
    expect(h.scheduled()).toBe(false);
  });

  it('lets a read go at once when no change waits, and holds it with the changes that do', async () => {
    const h = harness();
    const a = world('a');
    expect(h.through(a, false)()).toBeUndefined();
    expect(h.scheduled()).toBe(false);
    const change = h.through(a, true)();
    const read = h.through(a, false)();
    expect(read).toBeInstanceOf(Promise);
    h.refuseWith(() => {
      throw new DomainError('storage_full', 'The disk is full.');
    });
    h.runCommit();
    // The read may show the change that was not stored: it goes out as the change's 507.
    expect(answer(await read)).toEqual({
      status: 507,
      body: { error: { code: 'storage_full', message: 'The disk is full.' } },
    });
    expect(answer(await change)).toEqual(answer(await read));
  });

  it('holds a change that changed nothing while a group waits, and gives it the group’s verdict', async () => {
    const h = harness();
    const [a, b] = [world('a'), world('b')];
    const change = h.through(a, true)();
    b.changed = false;
    const unchanged = h.through(b, true)();
    expect(unchanged).toBeInstanceOf(Promise);
    h.refuseWith(() => {
      throw new DomainError('storage_full', 'The disk is full.');
    });
    h.runCommit();
    expect(answer(await unchanged)).toEqual({
      status: 507,
      body: { error: { code: 'storage_full', message: 'The disk is full.' } },
    });
    expect(answer(await change)?.status).toBe(507);
  });

  it('refuses only the answers of a world its commit refused on its own', async () => {
    const h = harness();
    const [a, b] = [world('a'), world('b')];
    const answers = [h.through(a, true)(), h.through(b, true)()];
    h.refuseWith((worlds) => new Map([[worlds[1], new StoreError('state_not_loaded', 'Load it first.')]]));
    h.runCommit();
    const [ofA, ofB] = await Promise.all(answers);
    expect(ofA).toBeUndefined();
    expect(answer(ofB)).toEqual({
      status: 409,
      body: { error: { code: 'state_not_loaded', message: 'Load it first.' } },
    });
  });

  it('gives a read that waited with a refused world’s change that world’s refusal, and a read of another world none', async () => {
    const h = harness();
    const [a, b] = [world('a'), world('b')];
    const changes = [h.through(a, true)(), h.through(b, true)()];
    const reads = [h.through(a, false)(), h.through(b, false)()];
    h.refuseWith((worlds) => new Map([[worlds[1], new StoreError('state_not_loaded', 'Load it first.')]]));
    h.runCommit();
    await Promise.all(changes);
    const [ofA, ofB] = await Promise.all(reads);
    expect(ofA).toBeUndefined();
    expect(answer(ofB)?.status).toBe(409);
  });

  it('answers a refusal with the status and code the emulator’s options give', async () => {
    const h = harness({ errorStatuses: { storage_full: 503 }, errorCodes: { storage_full: 'disk_full' } });
    const waiting = h.through(world('a'), true)();
    h.refuseWith(() => {
      throw new DomainError('storage_full', 'The disk is full.');
    });
    h.runCommit();
    expect(answer(await waiting)).toEqual({
      status: 503,
      body: { error: { code: 'disk_full', message: 'The disk is full.' } },
    });
  });

  it('refuses a change begun before a failed commit reloaded its world, though its own commit wrote nothing', async () => {
    const h = harness();
    const a = world('a');
    const answerOf = h.through(a, true);
    // Another commit failed meanwhile: its reload bumped the epoch, and the change is gone from memory.
    a.epoch += 2;
    const waiting = answerOf();
    h.runCommit();
    const refused = answer(await waiting);
    expect(refused?.status).toBe(507);
    expect(refused?.body.error.code).toBe('storage_full');
    expect(refused?.body.error.message).toMatch(/reloaded\. Nothing was changed or charged; retry the request\.$/);
  });

  it('refuses a change whose world is still reloading after a failed commit, and writes nothing of that world', async () => {
    const h = harness();
    const [a, b] = [world('a'), world('b')];
    const answers = [h.through(a, true)(), h.through(b, true)()];
    a.restoring = true;
    h.runCommit();
    const [ofA, ofB] = await Promise.all(answers);
    expect(h.commits).toEqual([['b']]);
    expect(answer(ofA)?.status).toBe(507);
    expect(ofB).toBeUndefined();
  });

  it('writes nothing of a world closed while its answers waited', async () => {
    const h = harness();
    const [a, b] = [world('a'), world('b')];
    const answers = [h.through(a, true)(), h.through(b, true)()];
    b.closed = true;
    h.runCommit();
    expect(await Promise.all(answers)).toEqual([undefined, undefined]);
    expect(h.commits).toEqual([['a']]);
  });

  it('lets every answer go as it is once the store or its world is closed', () => {
    const h = harness();
    const [a, b] = [world('a'), world('b')];
    b.closed = true;
    expect(h.through(b, true)()).toBeUndefined();
    h.close();
    expect(h.through(a, true)()).toBeUndefined();
    expect(h.scheduled()).toBe(false);
  });

  it('gives the waiting answers their verdict at once when settled (a close), and commits nothing when none waits', async () => {
    const h = harness();
    h.gate.settle();
    expect(h.commits).toEqual([]);
    const waiting = h.through(world('a'), true)();
    h.gate.settle();
    expect(await waiting).toBeUndefined();
    expect(h.commits).toEqual([['a']]);
  });
});
