// Lost output files rendered again: requests for a file already rendering join it, and past the cap of distinct
// files waiting a request is refused at once (503 output_unavailable) instead of queueing without end.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DomainError } from '../../../src/domain/errors.js';
import type { Generation } from '../../../src/domain/generation.js';
import { createCachingRenderer } from '../../../src/infra/ffmpeg/caching-renderer.js';
import type { Renderer } from '../../../src/infra/renderer.js';
import { runtimeOf } from '../../../src/testing.js';
import { createOutputFileSource } from '../../../src/wiring/output-file-source.js';
import { client, MODEL_A, makeEmulator } from '../../helpers/emulator.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

/** A completed generation with three outputs, and the context it lives in, from a real emulator (fixture renderer). */
async function threeOutputs() {
  const emulator = makeEmulator({ ffmpegPath: false });
  const res = await client(emulator).submit(
    { model_slug: MODEL_A, prompt: 'three ferries', params: { count: '3' }, max_credits: 10_000 },
    'source-three-1',
  );
  expect(res.status).toBe(202);
  await emulator.advance(60_000);
  const ctx = runtimeOf(emulator).context();
  const generation: Generation = ctx.generations.get(res.body.generation.id as string)!;
  expect(generation.outputs).toHaveLength(3);
  return { generation, ctx };
}

/** A caching renderer (queue, coalescing, file store) whose every render waits until `release()`. */
async function heldRenderer(): Promise<{ renderer: Renderer; release: () => void; produced: () => number }> {
  const workDir = await mkdtemp(join(tmpdir(), 'source-test-'));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let produced = 0;
  const renderer = await createCachingRenderer({
    info: { mode: 'fixture', maxParallel: 1 },
    version: 'held',
    workDir,
    maxStoreBytes: 1 << 20,
    now: () => 0,
    produce: async (job, ctx) => {
      produced += 1;
      await gate;
      await writeFile(ctx.outPath, `output ${job.index}`);
    },
  });
  cleanup.push(async () => {
    await renderer.close();
    await rm(workDir, { recursive: true, force: true });
  });
  return { renderer, release, produced: () => produced };
}

describe('the output file source', () => {
  it('lets requests join a file already rendering, and refuses a new file past the cap until one is done', async () => {
    const { generation, ctx } = await threeOutputs();
    const held = await heldRenderer();
    const source = createOutputFileSource({
      renderer: async () => held.renderer,
      currentRenderer: () => held.renderer,
      catalogue: ctx.catalogue,
      uploads: ctx.uploads,
      uploadBytes: () => Promise.reject(new Error('no reference images here')),
      outputLabel: 'generation',
      sha256Hex: ctx.sha256Hex,
      retainUntil: () => 0,
      maxRestoresWaiting: 2,
    });
    const [first, second, third] = generation.outputs;
    expect(source.kept(first)).toBeUndefined();
    const waiting = [
      source.restore(generation, first, 1000),
      source.restore(generation, first, 1000),
      source.restore(generation, second, 1000),
    ];
    const refused = await source.restore(generation, third, 1000).catch((error: DomainError) => error);
    expect(refused).toMatchObject({ code: 'output_unavailable', message: expect.stringMatching(/Try again/) });

    held.release();
    const files = await Promise.all(waiting);
    expect(files[0].path).toBe(files[1].path);
    expect(held.produced()).toBe(2);
    // Room again: the third file renders now.
    expect((await source.restore(generation, third, 1000)).bytes).toBe('output 2'.length);
  });
});
