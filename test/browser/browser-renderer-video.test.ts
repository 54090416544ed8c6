// The browser renderer's MP4s in real Chromium: WebCodecs + Mediabunny files play for their length, at their size, with
// sound exactly when asked, a colour per output, and the reference images of Models A and B; ffprobe agrees from Node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_SIZES } from '../../src/domain/media-spec.js';
import { paletteFor } from '../../src/infra/ffmpeg/palette.js';
import {
  colourDistance,
  FRAME_TOLERANCE,
  ffprobe,
  jobFor,
  solidImage,
  tempDir,
  topLevelBoxes,
} from '../media/media-test-kit.js';
import { bytesOf, openRenderPage, type RenderPage, saved, toWire } from './render-harness-kit.js';

/** What ffprobe calls the codecs the renderer picks. */
const FFPROBE_NAME: Record<string, string> = { avc: 'h264', vp9: 'vp9', aac: 'aac', opus: 'opus' };
/** Colour after a lossy round trip through YUV 4:2:0 (the flat areas measure within 6 here). */
const COLOUR_TOLERANCE = 12;

describe('browser renderer: MP4 in real Chromium', () => {
  let page: RenderPage;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let info: Record<string, unknown>;

  beforeAll(async () => {
    dir = await tempDir('browser-video');
    page = await openRenderPage();
    info = await page.call('start', {});
  });

  afterAll(async () => {
    await page?.close();
    await dir?.remove();
  });

  it('chooses its encoders from what WebCodecs answers here: H.264 or VP9, AAC or Opus', async () => {
    const probe = await page.call('probe');
    const h264 = probe['video H.264 Baseline (avc1.42001f), 854x480'];
    expect(info.mode).toBe('webcodecs');
    expect(info.videoCodec).toBe(h264 ? 'avc' : 'vp9');
    expect(info.audioCodec).toBe(probe['audio AAC-LC (mp4a.40.2), 48 kHz mono'] ? 'aac' : 'opus');
  });

  it('finds a configuration WebCodecs accepts at every documented video size, with the level the size needs', async () => {
    const sizes = Object.values(VIDEO_SIZES).flatMap((byAspect) =>
      Object.values(byAspect).map(({ width, height }): [number, number] => [width, height]),
    );
    for (const codec of ['avc', 'vp9'] as const) {
      const found = await page.call('encodings', codec, sizes);
      expect(found.filter((encoding) => encoding === null)).toEqual([]);
      const at = (width: number, height: number) => found[sizes.findIndex(([w, h]) => w === width && h === height)];
      // H.264 High at levels 3.0, 3.1 and 4.0 (frame sizes in macroblocks); VP9 profile 0 at 3.0, 3.1 and 4.0.
      const levels =
        codec === 'avc'
          ? ['avc1.64001e', 'avc1.64001f', 'avc1.640028']
          : ['vp09.00.30.08', 'vp09.00.31.08', 'vp09.00.40.08'];
      expect([at(854, 480), at(1280, 720), at(1920, 1080)].map((e) => e?.split(' ')[0])).toEqual(levels);
    }
  });

  it('writes the default Model A video: 4 s at 854x480, no sound, moov first, and it plays to the end', async () => {
    const job = await jobFor('motion-lite-v1', {});
    const file = await page.call('render', toWire(job));
    expect(file).toMatchObject({ mimeType: 'video/mp4', cacheHit: false });
    const played = await page.call('playVideo', file, [850, 4]);
    expect(Math.abs(played.duration - 4)).toBeLessThanOrEqual(FRAME_TOLERANCE);
    expect([played.videoWidth, played.videoHeight]).toEqual([854, 480]);
    expect(played.videoBytes).toBeGreaterThan(0);
    expect(played.audioBytes).toBe(0);

    const path = await saved(dir.path, 'default.mp4', file);
    const probe = await ffprobe(path);
    expect(probe.streams.map((s) => [s.codec_type, s.codec_name])).toEqual([
      ['video', FFPROBE_NAME[info.videoCodec as string]],
    ]);
    expect(probe.streams[0]).toMatchObject({ width: 854, height: 480, nb_frames: '96' });
    expect(Math.abs(Number(probe.format.duration) - 4)).toBeLessThanOrEqual(FRAME_TOLERANCE);
    expect((await topLevelBoxes(path)).filter((box) => box === 'moov' || box === 'mdat')).toEqual(['moov', 'mdat']);
  });

  it('honours quality, aspect, duration and audio: 720p 9:16 for 5 s with a sound track', async () => {
    const job = await jobFor('motion-lite-v1', { quality: '720p', size: '9:16', duration: '5', audio: 'on' });
    const file = await page.call('render', toWire(job));
    const played = await page.call('playVideo', file, [4, 4]);
    expect(Math.abs(played.duration - 5)).toBeLessThanOrEqual(FRAME_TOLERANCE);
    expect([played.videoWidth, played.videoHeight]).toEqual([720, 1280]);
    expect(played.audioBytes).toBeGreaterThan(0);

    const probe = await ffprobe(await saved(dir.path, 'tall.mp4', file));
    const audio = probe.streams.find((s) => s.codec_type === 'audio');
    expect(audio?.codec_name).toBe(FFPROBE_NAME[info.audioCodec as string]);
    expect(Math.abs(Number(audio?.duration) - 5)).toBeLessThanOrEqual(FRAME_TOLERANCE);
    expect(probe.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 720, height: 1280 });
  });

  it('gives each output of a count its own colours and bytes', async () => {
    const jobs = await Promise.all([0, 1, 2].map((index) => jobFor('motion-lite-v1', { count: '3' }, { index })));
    const files = await page.call('renderAll', jobs.map(toWire));
    expect(new Set(files.map((f) => f.key)).size).toBe(3);
    expect(new Set(files.map((f) => bytesOf(f).toString('base64'))).size).toBe(3);
    for (const [index, file] of files.entries()) {
      const played = await page.call('playVideo', file, [850, 4]);
      expect(colourDistance(played.firstPixel, paletteFor(index).backgroundRgb)).toBeLessThanOrEqual(COLOUR_TOLERANCE);
    }
  });

  it('Model A: the first frame is the start image, which then drifts left over the background', async () => {
    const red: [number, number, number] = [220, 30, 30];
    const job = await jobFor('motion-lite-v1', {}, { firstFrame: await solidImage(red, 854, 480) });
    const played = await page.call('playVideo', await page.call('render', toWire(job)), [850, 240]);
    expect(colourDistance(played.firstPixel, red)).toBeLessThanOrEqual(COLOUR_TOLERANCE);
    // By the last frame the image has moved 15% of the width left: the right edge shows the palette's background.
    expect(colourDistance(played.lastPixel, paletteFor(0).backgroundRgb)).toBeLessThanOrEqual(COLOUR_TOLERANCE);
  });

  it('Model B: the first frame is the first image and the last frame the last one, cross-faded between', async () => {
    const red: [number, number, number] = [220, 30, 30];
    const blue: [number, number, number] = [30, 60, 220];
    const job = await jobFor(
      'keyframe-pro-v2',
      {},
      { firstFrame: await solidImage(red, 640, 360), lastFrame: await solidImage(blue, 1280, 720) },
    );
    expect(job.spec).toMatchObject({ width: 1280, height: 720, durationSeconds: 3, referenceMode: 'first-last' });
    const played = await page.call('playVideo', await page.call('render', toWire(job)), [640, 200]);
    expect(Math.abs(played.duration - 3)).toBeLessThanOrEqual(FRAME_TOLERANCE);
    expect(colourDistance(played.firstPixel, red)).toBeLessThanOrEqual(COLOUR_TOLERANCE);
    expect(colourDistance(played.lastPixel, blue)).toBeLessThanOrEqual(COLOUR_TOLERANCE);
  });

  it('writes VP9 in MP4 when H.264 is not among the codecs it may use, and that plays too', async () => {
    const vp9 = await page.call('start', { videoCodecs: ['vp9'] });
    try {
      expect(vp9.videoCodec).toBe('vp9');
      const file = await page.call('render', toWire(await jobFor('motion-lite-v1', { audio: 'on' })));
      const played = await page.call('playVideo', file, [850, 4]);
      expect(Math.abs(played.duration - 4)).toBeLessThanOrEqual(FRAME_TOLERANCE);
      expect([played.videoWidth, played.videoHeight, played.audioBytes > 0]).toEqual([854, 480, true]);
      const probe = await ffprobe(await saved(dir.path, 'vp9.mp4', file));
      expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(['opus', 'vp9'].sort());
    } finally {
      info = await page.call('start', {});
    }
  });
});
