// Arbitrary prompt text and odd paths reach ffmpeg intact; a missing font, drawtext or xfade degrades, never fails.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FULL_CAPABILITIES } from '../../src/infra/ffmpeg/ffmpeg-capabilities.js';
import { createFfmpegRenderer } from '../../src/infra/ffmpeg/ffmpeg-renderer.js';
import { filterValue } from '../../src/infra/ffmpeg/filtergraph.js';
import { buildRenderPlan } from '../../src/infra/ffmpeg/render-plan.js';
import { sanitizeText, wrapText } from '../../src/infra/ffmpeg/text-layout.js';
import type { Renderer } from '../../src/infra/renderer.js';
import { colourDistance, ffprobe, frameColour, jobFor, solidImage, TOOLS, tempDir } from './media-test-kit.js';

/** The font the package ships, so the test needs no font installed on the machine. */
const FIXTURE_FONT = fileURLToPath(new URL('../../fixtures/fonts/DejaVuSansMono.ttf', import.meta.url));

const NASTY = `It's "quoted": 100% \\ back\\slash, [brackets]; semi; %{pts} %{eif:1:d}\nline two\ttab 🎉 emoji ‮rtl`;

let work: Awaited<ReturnType<typeof tempDir>>;
let renderers: Renderer[];

beforeEach(async () => {
  work = await tempDir('text');
  renderers = [];
});

afterEach(async () => {
  await Promise.all(renderers.map((r) => r.close()));
  await work.remove();
});

async function ffmpegRenderer(
  dirName: string,
  options: { font?: boolean; caps?: Partial<typeof FULL_CAPABILITIES> } = {},
): Promise<Renderer> {
  const workDir = join(work.path, dirName);
  await mkdir(workDir, { recursive: true });
  const renderer = await createFfmpegRenderer({
    binary: TOOLS.ffmpeg,
    source: 'PATH',
    version: 'test',
    caps: { ...FULL_CAPABILITIES, ...options.caps },
    font: options.font === false ? undefined : { path: FIXTURE_FONT, source: 'fixtures', monospace: true },
    workDir,
    maxParallel: 2,
    maxStoreBytes: 1 << 30,
    now: () => 0,
  });
  renderers.push(renderer);
  return renderer;
}

describe('prompt text', () => {
  it('travels in a text file, never inside the filter graph', async () => {
    const job = await jobFor('motion-lite-v1', {}, { prompt: NASTY });
    const plan = buildRenderPlan(job, {
      tmpDir: '/tmp/x',
      outPath: '/tmp/x/out.mp4',
      font: { path: '/f.ttf', source: 'system', monospace: true },
      caps: FULL_CAPABILITIES,
    });
    expect(plan.type).toBe('ffmpeg');
    if (plan.type !== 'ffmpeg') return;
    const prompt = plan.files.find((f) => f.path.endsWith('prompt.txt'))!;
    expect(prompt.data).toContain(`It's "quoted": 100% \\ back\\slash, [brackets]; semi; %{pts}`);
    expect(prompt.data).not.toContain('\u202e');
    expect(plan.args.join(' ')).not.toContain('quoted');
  });

  it('renders a hostile prompt and a 2,500-character prompt from a directory with quotes, colons and brackets', async () => {
    const renderer = await ffmpegRenderer(`we'ird: dir,[x];%`);
    const small = { duration: '4', size: '1:1' };
    const hostile = await renderer.render(await jobFor('motion-lite-v1', small, { prompt: NASTY }));
    const long = await renderer.render(await jobFor('motion-lite-v1', small, { prompt: 'word '.repeat(500) }));
    for (const file of [hostile, long]) {
      expect((await ffprobe(file.path)).streams[0]).toMatchObject({ codec_name: 'h264', width: 480, height: 480 });
    }
  });
});

describe('degraded builds', () => {
  it('renders without text when no font is found, and when drawtext is missing', async () => {
    const noFont = await ffmpegRenderer('no-font', { font: false });
    const noDrawtext = await ffmpegRenderer('no-drawtext', { caps: { drawtext: false } });
    for (const renderer of [noFont, noDrawtext]) {
      const file = await renderer.render(await jobFor('motion-lite-v1', { duration: '4', audio: 'on' }));
      const probe = await ffprobe(file.path);
      expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    }
  });

  it('cross-fades the Model B frames without xfade as xfade would: exact ends, an even mix half-way', async () => {
    // No text, so the sampled region shows only the two references (the square and bar move elsewhere).
    const renderer = await ffmpegRenderer('no-xfade', { caps: { xfade: false, drawtext: false } });
    const [red, blue] = await Promise.all([solidImage([220, 30, 30], 200, 200), solidImage([30, 60, 220], 200, 200)]);
    const file = await renderer.render(
      await jobFor('keyframe-pro-v2', { duration: '3', size: '1:1' }, { firstFrame: red, lastFrame: blue }),
    );
    // 72 frames: the first image holds for 18, the fade runs frames 18 to 54, the last image holds to the end.
    const region = { x: 60, y: 300, w: 100, h: 100 };
    const at = (frame: number) => frameColour(file.path, frame, region);
    expect(colourDistance(await at(0), [220, 30, 30])).toBeLessThanOrEqual(14);
    expect(colourDistance(await at(18), [220, 30, 30])).toBeLessThanOrEqual(14);
    expect(colourDistance(await at(36), [125, 45, 125])).toBeLessThanOrEqual(14);
    expect(colourDistance(await at(54), [30, 60, 220])).toBeLessThanOrEqual(14);
    expect(colourDistance(await at(71), [30, 60, 220])).toBeLessThanOrEqual(14);
  });

  it('reports a build without libx264 as a clear render error', async () => {
    const renderer = await ffmpegRenderer('no-x264', { caps: { libx264: false } });
    await expect(renderer.render(await jobFor('motion-lite-v1', {}))).rejects.toThrow(/no libx264 encoder/);
  });
});

describe('text layout', () => {
  it('wraps at word boundaries, breaks over-long words, keeps newlines and ends a cut with an ellipsis', () => {
    expect(wrapText('aaa bbb ccc', 7, 5)).toEqual(['aaa bbb', 'ccc']);
    expect(wrapText('abcdefghij', 4, 5)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('one\ntwo', 20, 5)).toEqual(['one', 'two']);
    expect(wrapText('a b c d e f g h', 4, 2)).toEqual(['a b', 'c d…']);
    expect(wrapText('🎉🎉🎉🎉🎉', 4, 1)).toEqual(['🎉🎉🎉…']);
  });

  it('drops control and direction-override characters but keeps newlines', () => {
    expect(sanitizeText('a\u0000b\r\nc\td\u202ee')).toBe('ab\nc de');
  });

  it('escapes filter values at both of ffmpeg’s quoting levels', () => {
    expect(filterValue("/tmp/we'ird: dir,[x];")).toBe("/tmp/we\\\\\\'ird\\\\: dir\\,\\[x\\]\\;");
    expect(filterValue('between(n,1,94)')).toBe('between(n\\,1\\,94)');
  });
});
