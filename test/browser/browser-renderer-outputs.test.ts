// The browser renderer's other outputs in real Chromium (PNG and WebP stills, music, GLB), its cache, and its fallbacks
// when the browser lacks an encoder: the shipped fixture files, with one warning each.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGlb } from '../../src/infra/ffmpeg/glb-cube.js';
import { paletteFor } from '../../src/infra/ffmpeg/palette.js';
import { colourDistance, ffprobe, jobFor, tempDir } from '../media/media-test-kit.js';
import { bytesOf, openRenderPage, type RenderPage, saved, toWire } from './render-harness-kit.js';

const fixture = (name: string): Promise<Buffer> => readFile(new URL(`../../fixtures/${name}`, import.meta.url));

/** A browser without WebCodecs: the encoder classes are gone before any page script runs. */
const WITHOUT_WEBCODECS = 'delete globalThis.VideoEncoder; delete globalThis.AudioEncoder;';

describe('browser renderer: stills, music, 3d and the cache in real Chromium', () => {
  let page: RenderPage;
  let dir: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    dir = await tempDir('browser-outputs');
    page = await openRenderPage();
    await page.call('start', {});
  });

  afterAll(async () => {
    await page?.close();
    await dir?.remove();
  });

  it('draws PNG stills at the spec size, a colour per output, and they decode', async () => {
    const jobs = await Promise.all(
      [0, 1].map((index) => jobFor('still-sketch-v1', { size: '16:9', count: '2' }, { index })),
    );
    const files = await page.call('renderAll', jobs.map(toWire));
    for (const [index, file] of files.entries()) {
      expect(file.mimeType).toBe('image/png');
      const decoded = await page.call('decodeImage', file, [1020, 4]);
      expect([decoded.width, decoded.height]).toEqual([1024, 576]);
      expect(colourDistance(decoded.pixel.slice(0, 3), paletteFor(index).backgroundRgb)).toBe(0);
    }
    const probe = await ffprobe(await saved(dir.path, 'still.png', files[0]!));
    expect(probe.streams[0]).toMatchObject({ codec_name: 'png', width: 1024, height: 576 });
  });

  it('writes WebP where the spec asks for it, since this browser can', async () => {
    const png = await jobFor('still-sketch-v1', { size: '3:4' });
    const job = { ...png, spec: { ...png.spec, format: 'webp' as const, mimeType: 'image/webp' } };
    const file = await page.call('render', toWire(job));
    expect(file.mimeType).toBe('image/webp');
    expect(bytesOf(file).subarray(8, 12).toString('latin1')).toBe('WEBP');
    const decoded = await page.call('decodeImage', file, [4, 4]);
    expect([decoded.width, decoded.height]).toEqual([768, 1024]);
    const probe = await ffprobe(await saved(dir.path, 'still.webp', file));
    expect(probe.streams[0]).toMatchObject({ codec_name: 'webp', width: 768, height: 1024 });
  });

  it('writes music as an .m4a of the requested length, with the request in its title', async () => {
    const job = await jobFor('tone-music-v1', { duration: '5' });
    const file = await page.call('render', toWire(job));
    expect(file.mimeType).toBe('audio/mp4');
    const played = await page.call('playAudio', file);
    expect(Math.abs(played.duration - 5)).toBeLessThan(0.05);
    expect(played.audioBytes).toBeGreaterThan(0);
    const probe = (await ffprobe(await saved(dir.path, 'music.m4a', file))) as Awaited<ReturnType<typeof ffprobe>> & {
      format: { tags?: Record<string, string> };
    };
    expect(probe.streams.map((s) => s.codec_type)).toEqual(['audio']);
    expect(probe.format.tags?.title).toBe('tone-music-v1 #1 gen_test');
  });

  it('builds the same GLB bytes as the Node renderer, without Buffer', async () => {
    const job = await jobFor('mesh-blocks-v1', { detail: 'high' });
    const file = await page.call('render', toWire(job));
    expect(file.mimeType).toBe('model/gltf-binary');
    expect(bytesOf(file).equals(Buffer.from(buildGlb(job)))).toBe(true);
  });

  it('renders identical jobs once, answers repeats from its store, and hands bytes back by key', async () => {
    const job = toWire(await jobFor('motion-lite-v1', { duration: '4' }, { prompt: 'a cache test' }));
    const before = await page.call('stats');
    const [a, b] = await page.call('renderAll', [job, job]);
    expect(a!.key).toBe(b!.key);
    expect([a!.cacheHit, b!.cacheHit].sort()).toEqual([false, true]);
    const again = await page.call('render', job);
    expect(again.cacheHit).toBe(true);
    const after = await page.call('stats');
    expect(after.renders - before.renders).toBe(1);
    await expect(page.call('get', a!.key)).resolves.toMatchObject({ base64: a!.base64, mimeType: 'video/mp4' });
    expect(await page.call('get', 'no-such-key')).toBeNull();
  });

  it('runs in a dedicated worker as well: a video with sound and a PNG', async () => {
    for (const job of [await jobFor('motion-lite-v1', { audio: 'on' }), await jobFor('still-sketch-v1', {})]) {
      const made = await page.call('renderInWorker', toWire(job));
      expect(made).toMatchObject({ mode: 'webcodecs', mimeType: job.spec.mimeType });
      const probe = await ffprobe(
        await saved(dir.path, `worker.${job.spec.format}`, { ...made, key: '', bytes: 0, cacheHit: false }),
      );
      expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(job.spec.audio ? ['audio', 'video'] : ['video']);
    }
  });

  it('refuses MP3 with a message that says what to do', async () => {
    const music = await jobFor('tone-music-v1', {});
    const job = { ...music, spec: { ...music.spec, format: 'mp3' as const, mimeType: 'audio/mpeg' } };
    await expect(page.call('render', toWire(job))).rejects.toThrow(
      /no browser can write MP3.*use a model whose output is m4a/,
    );
  });

  it('without an audio encoder it may use, a video asked with sound has none, and says so once', async () => {
    // This Chromium has no AAC encoder on Linux, so allowing AAC only is a browser without a usable audio encoder.
    const aacOnly = await page.call('start', { audioCodecs: ['aac'] });
    try {
      expect(aacOnly.audioCodec).toBeNull();
      for (const duration of ['4', '5']) {
        const file = await page.call('render', toWire(await jobFor('motion-lite-v1', { audio: 'on', duration })));
        const played = await page.call('playVideo', file, [4, 4]);
        expect([played.audioBytes, played.videoBytes > 0]).toEqual([0, true]);
      }
      const music = await page.call('render', toWire(await jobFor('tone-music-v1', {})));
      expect(bytesOf(music).equals(await fixture('fallback.m4a'))).toBe(true);
      const logs = await page.call('logs');
      expect(logs.filter((line) => line.includes('videos asked with audio=on carry no sound'))).toHaveLength(1);
      expect(logs.filter((line) => line.includes('fixtures/fallback.m4a'))).toHaveLength(1);
    } finally {
      await page.call('start', {});
    }
  });
});

describe('browser renderer: a browser without WebCodecs', () => {
  let page: RenderPage;

  beforeAll(async () => {
    page = await openRenderPage(WITHOUT_WEBCODECS);
  });

  afterAll(async () => {
    await page?.close();
  });

  it('serves the shipped fallback clip for every MP4, warns once, and still draws real stills', async () => {
    const info = await page.call('start', {});
    expect(info).toMatchObject({ mode: 'fixture', videoCodec: null, audioCodec: null });
    expect(String(info.warning)).toContain('no WebCodecs H.264 or VP9 encoder');
    const videos = await Promise.all(
      ['4', '6'].map(async (duration) => page.call('render', toWire(await jobFor('motion-lite-v1', { duration })))),
    );
    const clip = await fixture('fallback.mp4');
    for (const file of videos) expect(bytesOf(file).equals(clip)).toBe(true);
    const played = await page.call('playVideo', videos[0]!, [4, 4]);
    expect(played.duration).toBe(4);
    const logs = await page.call('logs');
    expect(logs.filter((line) => line.includes('fixtures/fallback.mp4'))).toHaveLength(1);

    const still = await page.call('render', toWire(await jobFor('still-sketch-v1', {})));
    expect((await page.call('decodeImage', still, [4, 4])).width).toBe(1024);
  });
});
