// Every option value of both video models renders the promised file: ffprobe checks codec, size, duration and audio.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/infra/create-renderer.js';
import type { Renderer } from '../../src/infra/renderer.js';
import {
  colourDistance,
  ffprobe,
  FPS,
  FRAME_TOLERANCE,
  frameColour,
  jobFor,
  model,
  tempDir,
  topLevelBoxes,
} from './media-test-kit.js';

/** Written out by hand (not imported from media-spec.ts), so a wrong formula there fails here. */
const SIZES: Record<string, Record<string, [number, number]>> = {
  '480p': {
    '16:9': [854, 480],
    '9:16': [480, 854],
    '1:1': [480, 480],
    '4:3': [640, 480],
    '3:4': [480, 640],
    '21:9': [1120, 480],
  },
  '720p': {
    '16:9': [1280, 720],
    '9:16': [720, 1280],
    '1:1': [720, 720],
    '4:3': [960, 720],
    '3:4': [720, 960],
    '21:9': [1680, 720],
  },
};

/**
 * A covering set instead of the Cartesian product: case i takes value i (mod n) of every group, so each value
 * of each group appears at least once in max(n) renders. Groups of equal length are shifted against each other
 * (quality and audio would otherwise always pair 480p with off). Durations are then dealt out longest-first to
 * the smallest frames, which keeps every value covered at a fraction of the CPU time. `count` picks the index.
 */
async function coveringCases(
  slug: string,
  quality: (p: Record<string, string>) => string,
): Promise<Array<Record<string, string>>> {
  const groups = (await model(slug)).option_groups;
  const longest = Math.max(...groups.map((g) => g.values.length));
  const cases = Array.from({ length: longest }, (_, i) =>
    Object.fromEntries(
      groups.map((g) => {
        const n = g.values.length;
        const sameLengthBefore = groups.slice(0, groups.indexOf(g)).filter((o) => o.values.length === n).length;
        return [g.name, g.values[(i + Math.floor(i / n) * sameLengthBefore) % n]!];
      }),
    ),
  );
  const pixels = (p: Record<string, string>): number => SIZES[quality(p)]![p.size!]!.reduce((a, b) => a * b);
  const durations = cases.map((c) => c.duration!).sort((a, b) => Number(b) - Number(a));
  const bySize = [...cases].sort((a, b) => pixels(a) - pixels(b));
  bySize.forEach((c, i) => {
    c.duration = durations[i]!;
  });
  return cases;
}

const casesA = await coveringCases('motion-lite-v1', (p) => p.quality!);
const casesB = await coveringCases('keyframe-pro-v2', () => '720p');

let renderer: Renderer;
let work: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  work = await tempDir('options');
  renderer = await createRenderer({ now: () => 0, workDir: work.path, maxParallel: 2, searchPath: process.env.PATH });
  expect(renderer.info.mode).toBe('ffmpeg');
});

afterAll(async () => {
  await renderer?.close();
  await work?.remove();
});

async function renderAndProbe(slug: string, params: Record<string, string>, quality: string): Promise<void> {
  const job = await jobFor(slug, params, { index: Number(params.count) - 1 });
  const file = await renderer.render(job);
  const probe = await ffprobe(file.path);
  const video = probe.streams.filter((s) => s.codec_type === 'video');
  const audio = probe.streams.filter((s) => s.codec_type === 'audio');
  const seconds = Number(params.duration);
  const [width, height] = SIZES[quality]![params.size!]!;

  expect(video).toHaveLength(1);
  expect(video[0]).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width, height });
  expect(Math.abs(Number(probe.format.duration) - seconds)).toBeLessThanOrEqual(FRAME_TOLERANCE);
  expect(Math.abs(Number(video[0]!.nb_frames) - seconds * FPS)).toBeLessThanOrEqual(1);
  if (params.audio === 'on') {
    expect(audio).toHaveLength(1);
    expect(audio[0]!.codec_name).toBe('aac');
    expect(Math.abs(Number(audio[0]!.duration) - seconds)).toBeLessThanOrEqual(FRAME_TOLERANCE);
  } else {
    expect(audio).toHaveLength(0);
  }
  const boxes = await topLevelBoxes(file.path);
  expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
  expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  expect(file.mimeType).toBe('video/mp4');
}

const label = (p: Record<string, string>): string =>
  Object.entries(p)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

describe.concurrent('Model A (motion-lite-v1) honours every option value', () => {
  for (const params of casesA) {
    it(`renders ${label(params)}`, () => renderAndProbe('motion-lite-v1', params, params.quality!), 60_000);
  }
});

describe.concurrent('Model B (keyframe-pro-v2) honours every option value at its default quality of 720p', () => {
  for (const params of casesB) {
    it(`renders ${label(params)}`, () => renderAndProbe('keyframe-pro-v2', params, '720p'), 60_000);
  }
});

describe('count', () => {
  it('renders each of four outputs visibly distinct: own background colour, own bytes', async () => {
    const params = { duration: '4', quality: '480p', size: '1:1', audio: 'off', count: '4' };
    const jobs = await Promise.all([0, 1, 2, 3].map((index) => jobFor('motion-lite-v1', params, { index })));
    const files = await Promise.all(jobs.map((job) => renderer.render(job)));
    const hashes = await Promise.all(
      files.map(async (f) =>
        createHash('sha256')
          .update(await readFile(f.path))
          .digest('hex'),
      ),
    );
    expect(new Set(hashes).size).toBe(4);
    // Top-right corner: background only (the short prompt's box ends well before it).
    const colours = await Promise.all(files.map((f) => frameColour(f.path, 5, { x: 436, y: 4, w: 40, h: 40 })));
    for (let i = 0; i < colours.length; i += 1) {
      for (let j = i + 1; j < colours.length; j += 1)
        expect(colourDistance(colours[i]!, colours[j]!)).toBeGreaterThan(30);
    }
  }, 60_000);
});
