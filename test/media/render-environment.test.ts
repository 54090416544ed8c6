// A render's ffmpeg runs with the caller's environment plus fixed allocator thresholds, from the renderer and from the
// emulator alike: with glibc's dynamic ones the same command took 0.7 s or 2.2 s (bench/RESULTS.md, Renders).
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/infra/create-renderer.js';
import { FFMPEG_MALLOC_TUNING } from '../../src/infra/ffmpeg/run-ffmpeg.js';
import { createEmulatorApp } from '../../src/index.js';
import { jobFor, TOOLS, tempDir } from './media-test-kit.js';

let work: Awaited<ReturnType<typeof tempDir>>;
let wrapper: string;
let seen: string;

/** An ffmpeg that writes its environment after each argument list, then runs the real one. */
async function recordingFfmpeg(): Promise<void> {
  wrapper = join(work.path, 'ffmpeg');
  seen = join(work.path, 'seen.txt');
  await writeFile(wrapper, `#!/bin/sh\n{ echo "ARGS $*"; env; } >> '${seen}'\nexec '${TOOLS.ffmpeg}' "$@"\n`);
  await chmod(wrapper, 0o755);
}

/** The environment of each run whose arguments include `argument`, in order. */
async function environments(argument: string): Promise<Map<string, string>[]> {
  const runs = (await readFile(seen, 'utf8')).split(/^ARGS /m).filter((run) => run.split('\n')[0].includes(argument));
  return runs.map((run) => {
    const lines = run
      .split('\n')
      .slice(1)
      .filter((l) => l.includes('='));
    return new Map(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  });
}

/** The environment of the one run that rendered (the others probed the binary, its filters and encoders). */
async function renderEnvironment(): Promise<Map<string, string>> {
  const runs = await environments('-filter_complex');
  expect(runs).toHaveLength(1);
  return runs[0];
}

beforeEach(async () => {
  work = await tempDir('render-env');
  await recordingFfmpeg();
});

afterEach(() => work.remove());

describe("a render's environment", () => {
  it("is the caller's, as it is at each render, with glibc's allocator thresholds fixed", async () => {
    const childEnvironment: Record<string, string | undefined> = { PATH: process.env.PATH, RENDER_ENV_MARKER: 'start' };
    const renderer = await createRenderer({ now: () => 0, workDir: work.path, ffmpegPath: wrapper, childEnvironment });
    try {
      expect(renderer.info.mode).toBe('ffmpeg');
      childEnvironment.RENDER_ENV_MARKER = 'changed since';
      await renderer.render(await jobFor('motion-lite-v1', { duration: '4', quality: '480p' }));
    } finally {
      await renderer.close();
    }
    const env = await renderEnvironment();
    expect(env.get('RENDER_ENV_MARKER')).toBe('changed since');
    for (const [name, value] of Object.entries(FFMPEG_MALLOC_TUNING)) expect(env.get(name)).toBe(value);
    expect(FFMPEG_MALLOC_TUNING.MALLOC_MMAP_THRESHOLD_).toBe(String(32 * 1024 * 1024));
    // The probes before it ran with the caller's environment too, without the render's settings.
    const [version] = await environments('-version');
    expect([version.get('RENDER_ENV_MARKER'), version.has('MALLOC_MMAP_THRESHOLD_')]).toEqual(['start', false]);
  });

  it('leaves a threshold the caller set itself as it is', async () => {
    const renderer = await createRenderer({
      now: () => 0,
      workDir: work.path,
      ffmpegPath: wrapper,
      childEnvironment: { PATH: process.env.PATH, MALLOC_TRIM_THRESHOLD_: '1048576' },
    });
    try {
      await renderer.render(await jobFor('motion-lite-v1', { duration: '4', quality: '480p' }));
    } finally {
      await renderer.close();
    }
    const env = await renderEnvironment();
    expect([env.get('MALLOC_TRIM_THRESHOLD_'), env.get('MALLOC_MMAP_THRESHOLD_')]).toEqual([
      '1048576',
      FFMPEG_MALLOC_TUNING.MALLOC_MMAP_THRESHOLD_,
    ]);
  });

  it('gets the thresholds from an emulator too, whose environment comes from this process', async () => {
    const emulator = createEmulatorApp({ ffmpegPath: wrapper, timing: 'instant' });
    try {
      const res = await request(emulator.app)
        .post('/v1/media/generations')
        .set('Authorization', `Bearer ${emulator.apiKey}`)
        .set('Idempotency-Key', 'render-env-1')
        .send({ model_slug: 'motion-lite-v1', prompt: 'a fox in the snow', max_credits: 1000 });
      expect(res.status).toBe(202);
      await emulator.control.waitFor(res.body.generation.id, 'completed');
    } finally {
      await emulator.close();
    }
    const env = await renderEnvironment();
    expect(env.get('MALLOC_TRIM_THRESHOLD_')).toBe(FFMPEG_MALLOC_TUNING.MALLOC_TRIM_THRESHOLD_);
    expect(env.get('PATH')).toBe(process.env.PATH);
  });
});
