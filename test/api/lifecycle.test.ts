// The generation lifecycle on the emulator clock: pending -> running -> completed | failed, completed_at on both final
// states, outputs only on completed, reads that never move anything, scripted and render failures with their refunds,
// the timing profiles (manual, instant, fast, realistic; global and per model) and sequential ids under a seed.
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/wiring/node/catalogue-file.js';
import type { CatalogueFile, ModelEntry } from '../../src/domain/catalogue-schema.js';
import type { Emulator } from '../../src/index.js';
import { client, makeEmulator, MODEL_A, MODEL_B, startTestEmulator } from '../helpers/emulator.js';
import { runtimeOf } from '../../src/testing.js';

const START = '2025-06-01T08:00:00.000Z';
const T0 = Date.parse(START);
const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');
const PROMPT = 'a kite over a windy beach';

async function submit(
  emulator: Emulator,
  body: Record<string, unknown> = {},
  key = `life-${Math.random().toString(36).slice(2, 12)}`,
) {
  const res = await client(emulator).submit(
    { model_slug: MODEL_A, prompt: PROMPT, max_credits: 100_000, ...body },
    key,
  );
  expect(res.status).toBe(202);
  return res.body.generation as { id: string; charged_credits: number };
}

async function read(emulator: Emulator, id: string) {
  const res = await client(emulator).get(`/v1/media/generations/${id}`);
  expect(res.status).toBe(200);
  return res.body.generation as Record<string, any>;
}

/** Event-loop turns (no wall-clock sleeps of any length that matters), settling renders each time, until `done`. */
async function turnsUntil(emulator: Emulator, done: () => Promise<boolean>, turns = 200): Promise<boolean> {
  for (let i = 0; i < turns; i++) {
    if (await done()) return true;
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await emulator.settle();
  }
  return done();
}

describe('manual timing: every state move on the emulator clock', () => {
  it('refuses an advance that is not a number of milliseconds, 0 or more, and moves nothing', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START, clock: 'frozen' });
    // Plain JavaScript callers: the handle's type says number.
    for (const bad of ['10m', Number.NaN, -1, Number.POSITIVE_INFINITY, undefined] as unknown as number[])
      await expect(emulator.advance(bad)).rejects.toThrow(/^advance\(ms\) takes a number of milliseconds, 0 or more/);
    await expect(emulator.advance('10m' as unknown as number)).rejects.toThrow("use control.advance('10m')");
    expect(await emulator.control.now()).toEqual(new Date(T0));
  });

  it('moves pending -> running -> completed exactly at the planned instants, outputs only at the end', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const g = await submit(emulator);
    const plan = runtimeOf(emulator).context().generations.get(g.id)!.plan;
    // Manual profile: 1 s pending, then 4 s + 1 s per output second (4 s default) running, fired only by advance().
    expect(plan).toMatchObject({ pendingMs: 1000, runningMs: 8000, manualOnly: true });

    let r = await read(emulator, g.id);
    expect(r).toMatchObject({
      status: 'pending',
      completed_at: null,
      outputs: [],
      error: null,
      billing_status: 'charged',
    });

    await emulator.advance(999);
    expect((await read(emulator, g.id)).status).toBe('pending');
    await emulator.advance(1);
    r = await read(emulator, g.id);
    expect(r).toMatchObject({ status: 'running', completed_at: null, outputs: [], error: null });

    await emulator.advance(7999);
    expect((await read(emulator, g.id)).status).toBe('running');
    expect((await read(emulator, g.id)).outputs).toEqual([]);
    await emulator.advance(1);
    r = await read(emulator, g.id);
    expect(r.status).toBe('completed');
    expect(r.completed_at).toBe(iso(T0 + 9000));
    expect(r.created_at).toBe(iso(T0));
    expect(r.error).toBeNull();
    expect(r.billing_status).toBe('charged');
    expect(r.outputs).toHaveLength(1);
    expect(r.outputs[0]).toMatchObject({
      index: 0,
      mime_type: 'video/mp4',
      format: 'mp4',
      width: 854,
      height: 480,
      duration_seconds: 4,
    });
    expect(r.outputs[0].url).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/files\/gen_000001\/0\.mp4\?expires=\d+&signature=[0-9a-f]{64}$/,
    );
  });

  it('goes straight through with one large advance, and makes one output per count', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const g = await submit(emulator, { params: { count: '3', duration: '6' } });
    await emulator.advance(60_000);
    const r = await read(emulator, g.id);
    expect(r.status).toBe('completed');
    // 1 s pending + (4 s + 6 s x 3 outputs) running.
    expect(r.completed_at).toBe(iso(T0 + 1000 + 22_000));
    expect(r.outputs.map((o: { index: number }) => o.index)).toEqual([0, 1, 2]);
    expect(r.outputs.every((o: { duration_seconds: number }) => o.duration_seconds === 6)).toBe(true);
  });

  it('never moves a generation on reads: single reads, list reads and usage reads leave it as it was', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const api = client(emulator);
    const g = await submit(emulator);
    const stored = runtimeOf(emulator).context().generations.get(g.id)!;
    for (let i = 0; i < 25; i++) {
      await api.get(`/v1/media/generations/${g.id}`);
      await api.get('/v1/media/generations');
      await api.get('/v1/media/usage');
    }
    expect(stored.status).toBe('pending');
    expect(runtimeOf(emulator).context().clock.now()).toBe(T0);
    await emulator.advance(1000);
    const before = JSON.stringify({ ...(await read(emulator, g.id)) });
    for (let i = 0; i < 10; i++) expect(JSON.stringify(await read(emulator, g.id))).toBe(before);
    expect(stored.status).toBe('running');
  });

  it('ages every generation on the same clock, each by its own plan', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const short = await submit(emulator, { params: { duration: '4' } });
    const long = await submit(emulator, { params: { duration: '15' } });
    await emulator.advance(9000);
    expect((await read(emulator, short.id)).status).toBe('completed');
    expect((await read(emulator, long.id)).status).toBe('running');
    await emulator.advance(11_000);
    expect((await read(emulator, long.id)).status).toBe('completed');
    expect((await read(emulator, long.id)).completed_at).toBe(iso(T0 + 1000 + 19_000));
  });
});

describe('failures and refund policies', () => {
  const policies = [
    ['full', { kind: 'full' as const }, 'refunded', (charged: number) => charged],
    ['partial', { kind: 'partial' as const, amount: 50 }, 'partially_refunded', () => 50],
    ['none', { kind: 'none' as const }, 'charged', () => 0],
  ] as const;

  it.each(policies)('fails a pending generation with refund %s', async (_name, policy, billing, refunded) => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const g = await submit(emulator, { params: { quality: '720p' } });
    const ctx = runtimeOf(emulator).context();
    await emulator.advance(400);
    ctx.lifecycle.fail(
      ctx.generations.get(g.id)!,
      { code: 'content_rejected', message: 'The prompt was refused.' },
      policy,
    );
    const r = await read(emulator, g.id);
    expect(r).toMatchObject({
      status: 'failed',
      completed_at: iso(T0 + 400),
      outputs: [],
      error: { code: 'content_rejected', message: 'The prompt was refused.' },
      charged_credits: 197,
      refunded_credits: refunded(197),
      net_credits: 197 - refunded(197),
      billing_status: billing,
    });
    expect(ctx.ledger.balance(emulator.accountId)).toBe(1_000_000 - 197 + refunded(197));
    // Its timers are gone: time passing changes nothing.
    await emulator.advance(60_000);
    expect(await read(emulator, g.id)).toEqual(r);
  });

  it.each(policies)('fails a running generation with refund %s', async (_name, policy, billing, refunded) => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const g = await submit(emulator, { model_slug: MODEL_B });
    const ctx = runtimeOf(emulator).context();
    await emulator.advance(2500);
    expect((await read(emulator, g.id)).status).toBe('running');
    ctx.lifecycle.fail(ctx.generations.get(g.id)!, { code: 'upstream_timeout', message: 'The job timed out.' }, policy);
    const r = await read(emulator, g.id);
    expect(r).toMatchObject({
      status: 'failed',
      completed_at: iso(T0 + 2500),
      outputs: [],
      billing_status: billing,
      refunded_credits: refunded(763),
      net_credits: 763 - refunded(763),
    });
    expect(r.error.code).toBe('upstream_timeout');
    await emulator.advance(60_000);
    expect((await read(emulator, g.id)).status).toBe('failed');
  });

  it('refuses to fail a completed generation, and keeps its outputs', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const g = await submit(emulator);
    await emulator.advance(60_000);
    const ctx = runtimeOf(emulator).context();
    expect(() =>
      ctx.lifecycle.fail(ctx.generations.get(g.id)!, { code: 'late', message: 'too late' }, { kind: 'full' }),
    ).toThrow(expect.objectContaining({ code: 'generation_final' }));
    const r = await read(emulator, g.id);
    expect(r.status).toBe('completed');
    expect(r.outputs).toHaveLength(1);
    expect(r.billing_status).toBe('charged');
  });

  it('reports a refund made after completion in billing_status while outputs stay', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const g = await submit(emulator);
    await emulator.advance(60_000);
    const ctx = runtimeOf(emulator).context();
    ctx.lifecycle.refund(ctx.generations.get(g.id)!, { kind: 'partial', amount: 8 });
    expect(await read(emulator, g.id)).toMatchObject({
      status: 'completed',
      refunded_credits: 8,
      net_credits: 80,
      billing_status: 'partially_refunded',
    });
    ctx.lifecycle.refund(ctx.generations.get(g.id)!, { kind: 'full' });
    expect(await read(emulator, g.id)).toMatchObject({
      refunded_credits: 88,
      net_credits: 0,
      billing_status: 'refunded',
    });
    expect(() => ctx.lifecycle.refund(ctx.generations.get(g.id)!, { kind: 'full' })).toThrow(
      expect.objectContaining({ code: 'already_refunded' }),
    );
  });

  it('fails a generation whose render fails with render_failed and refunds it in full', async () => {
    // A model whose output format has no fixture file, with ffmpeg disabled: the renderer cannot produce it.
    const base = loadCatalogue();
    const webp: ModelEntry = {
      slug: 'webp-still-v1',
      kind: 'image',
      name: 'WebP still',
      description: 'test model whose output needs ffmpeg',
      emulator_example: true,
      capabilities: ['text-to-image'],
      prompt: { required: true, max_length: 2500 },
      option_groups: [],
      reference_inputs: null,
      output: { format: 'webp', mime_type: 'image/webp' },
      price: { unit: 'image', credits_per_unit: '5', multipliers: {}, rounding: 'ceil' },
    };
    const catalogue: CatalogueFile = { version: 1, models: [...base.models, webp] };
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START, catalogue });
    const g = await submit(emulator, { model_slug: 'webp-still-v1' });
    await emulator.advance(1000);
    const r = await read(emulator, g.id);
    expect(r).toMatchObject({
      status: 'failed',
      completed_at: iso(T0 + 1000),
      outputs: [],
      charged_credits: 5,
      refunded_credits: 5,
      net_credits: 0,
      billing_status: 'refunded',
    });
    expect(r.error.code).toBe('render_failed');
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(1_000_000);
  });

  it('falls back to fixture outputs (not a failure) when ffmpegPath names a binary that does not exist', async () => {
    const emulator = makeEmulator({ ffmpegPath: '/nonexistent/bin/ffmpeg', clockStart: START });
    await emulator.ready;
    expect(emulator.rendererInfo()).toMatchObject({ mode: 'fixture' });
    expect(emulator.rendererInfo()?.warning).toContain('/nonexistent/bin/ffmpeg');
    const g = await submit(emulator);
    await emulator.advance(60_000);
    const r = await read(emulator, g.id);
    expect(r.status).toBe('completed');
    expect(r.outputs[0].mime_type).toBe('video/mp4');
    expect(r.outputs[0].bytes).toBeGreaterThan(0);
  });
});

describe('timing profiles', () => {
  it("'instant' completes without advancing the clock", async () => {
    const emulator = makeEmulator({ ffmpegPath: false, timing: 'instant' });
    const g = await submit(emulator);
    expect(runtimeOf(emulator).context().generations.get(g.id)!.plan).toMatchObject({
      pendingMs: 0,
      runningMs: 0,
      manualOnly: false,
    });
    const done = await turnsUntil(emulator, async () => (await read(emulator, g.id)).status === 'completed');
    expect(done).toBe(true);
    const r = await read(emulator, g.id);
    expect(r.outputs).toHaveLength(1);
    expect(r.completed_at).not.toBeNull();
  });

  it("a per-model 'instant' override completes that model on a frozen manual clock while the other waits", async () => {
    const emulator = makeEmulator({
      ffmpegPath: false,
      timing: 'manual',
      timingByModel: { [MODEL_B]: 'instant' },
      clockStart: START,
    });
    const a = await submit(emulator, { model_slug: MODEL_A });
    const b = await submit(emulator, { model_slug: MODEL_B });
    expect(await turnsUntil(emulator, async () => (await read(emulator, b.id)).status === 'completed')).toBe(true);
    expect((await read(emulator, b.id)).completed_at).toBe(iso(T0));
    expect((await read(emulator, a.id)).status).toBe('pending');
    await emulator.advance(9000);
    expect((await read(emulator, a.id)).status).toBe('completed');
  });

  it("a per-model 'manual' override holds that model while the global 'instant' profile completes the other", async () => {
    const emulator = makeEmulator({ ffmpegPath: false, timing: 'instant', timingByModel: { [MODEL_A]: 'manual' } });
    const a = await submit(emulator, { model_slug: MODEL_A });
    const b = await submit(emulator, { model_slug: MODEL_B });
    expect(await turnsUntil(emulator, async () => (await read(emulator, b.id)).status === 'completed')).toBe(true);
    expect((await read(emulator, a.id)).status).toBe('pending');
    expect(runtimeOf(emulator).context().generations.get(a.id)!.plan.manualOnly).toBe(true);
    await emulator.advance(9000);
    expect((await read(emulator, a.id)).status).toBe('completed');
  });

  it("'realistic' plans seconds, scaled with duration and count, with seeded jitter", async () => {
    const emulator = makeEmulator({ ffmpegPath: false, timing: 'realistic' });
    const small = await submit(emulator, { params: { duration: '4', count: '1' } });
    const big = await submit(emulator, { params: { duration: '15', count: '4' } });
    const ctx = runtimeOf(emulator).context();
    const p1 = ctx.generations.get(small.id)!.plan;
    const p2 = ctx.generations.get(big.id)!.plan;
    expect(p1.manualOnly).toBe(false);
    expect(p1.pendingMs).toBeGreaterThanOrEqual(1050);
    expect(p1.pendingMs).toBeLessThanOrEqual(1950);
    expect(p1.runningMs).toBeGreaterThanOrEqual(8000 * 0.8);
    expect(p1.runningMs).toBeLessThanOrEqual(8000 * 1.2);
    expect(p2.runningMs).toBeGreaterThanOrEqual(64_000 * 0.8);
    expect(p2.runningMs).toBeLessThanOrEqual(64_000 * 1.2);
  });

  it('draws the same jitter for the same seed, and other jitter for another seed', async () => {
    const plans = async (seed: number) => {
      const emulator = makeEmulator({ ffmpegPath: false, timing: 'realistic', seed });
      const out = [];
      for (let i = 0; i < 3; i++)
        out.push(
          runtimeOf(emulator)
            .context()
            .generations.get((await submit(emulator, {}, `jitter-key-${i}`)).id)!.plan,
        );
      return out.map((p) => [p.pendingMs, p.runningMs]);
    };
    const first = await plans(11);
    expect(await plans(11)).toEqual(first);
    expect(await plans(12)).not.toEqual(first);
  });

  it("a started emulator defaults to 'fast' timing on a real clock: tens of milliseconds to completion", async () => {
    // startEmulator()'s own start-up sequence (Emulator.start), with no option added, and its runtime reachable.
    const running = await startTestEmulator({ ffmpegPath: false });
    try {
      const { emulator } = running;
      expect(emulator.options.timing).toBe('fast');
      expect(runtimeOf(emulator).context().clock.frozen).toBe(false);
      const headers = { Authorization: `Bearer ${running.apiKey}`, 'Content-Type': 'application/json' };
      const res = await fetch(`${running.url}/v1/media/generations`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': 'fast-default-0001' },
        body: JSON.stringify({ model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 }),
      });
      expect(res.status).toBe(202);
      const { generation } = (await res.json()) as { generation: { id: string } };
      const plan = runtimeOf(emulator).context().generations.get(generation.id)!.plan;
      expect(plan.manualOnly).toBe(false);
      expect(plan.pendingMs).toBeGreaterThanOrEqual(5);
      expect(plan.pendingMs).toBeLessThanOrEqual(15);
      expect(plan.runningMs).toBeGreaterThanOrEqual(20);
      expect(plan.runningMs).toBeLessThanOrEqual(60);
      // Poll as a client would, over the socket, until it completes (well under a second).
      let status = 'pending';
      const started = Date.now();
      while (status !== 'completed' && Date.now() - started < 5000) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const poll = await fetch(`${running.url}/v1/media/generations/${generation.id}`, { headers });
        status = ((await poll.json()) as { generation: { status: string } }).generation.status;
      }
      expect(status).toBe('completed');
    } finally {
      await running.close();
    }
  });
});

describe('ids', () => {
  it('are sequential under a seed: gen_000001, req_000001, ... and two emulators share nothing', async () => {
    const one = makeEmulator({ ffmpegPath: false });
    const two = makeEmulator({ ffmpegPath: false });
    const a1 = await client(one).submit({ model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 }, 'ids-0001');
    const a2 = await client(one).submit({ model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 }, 'ids-0002');
    const b1 = await client(two).submit({ model_slug: MODEL_B, prompt: PROMPT, max_credits: 1000 }, 'ids-0001');
    expect([a1.body.generation.id, a1.body.request_id, a2.body.generation.id, a2.body.request_id]).toEqual([
      'gen_000001',
      'req_000001',
      'gen_000002',
      'req_000002',
    ]);
    expect(b1.body.generation.id).toBe('gen_000001');
    expect(runtimeOf(one).context().generations.size).toBe(2);
    expect(runtimeOf(two).context().generations.size).toBe(1);
    expect(runtimeOf(two).context().ledger.balance(two.accountId)).toBe(1_000_000 - 763);
  });

  it('are prefixed random ids without a seed', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, seed: undefined });
    const res = await client(emulator).submit(
      { model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 },
      'ids-random-1',
    );
    expect(res.body.generation.id).toMatch(/^gen_[0-9a-z]{20}$/);
    expect(res.body.request_id).toMatch(/^req_[0-9a-z]{20}$/);
    expect(res.body.generation.api_key_id).toBe(1);
  });
});

describe('real renders (ffmpeg when available, fixtures otherwise)', () => {
  it('completes with a stored MP4 the file URL serves', async () => {
    const emulator = makeEmulator({ clockStart: START });
    const g = await submit(emulator);
    await emulator.advance(60_000);
    const r = await read(emulator, g.id);
    expect(r.status).toBe('completed');
    const url = new URL(r.outputs[0].url);
    const file = await client(emulator)
      .raw.get(`${url.pathname}${url.search}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    const bytes = file.body as Buffer;
    expect(bytes.length).toBe(r.outputs[0].bytes);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });
});
