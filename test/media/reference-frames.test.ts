// Reference images land where promised: Model A starts on its image, Model B starts and ends on its two frames.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/infra/create-renderer.js';
import type { Renderer } from '../../src/infra/renderer.js';
import { colourDistance, ffprobe, frameColour, jobFor, solidImage, tempDir } from './media-test-kit.js';

/** yuv420p and H.264 shift solid colours by a few levels; 14 still tells magenta from red from blue. */
const CLOSE = 14;
const MAGENTA: [number, number, number] = [200, 40, 160];
const RED: [number, number, number] = [220, 30, 30];
const BLUE: [number, number, number] = [30, 60, 220];
const BLACK: [number, number, number] = [0, 0, 0];

let renderer: Renderer;
let work: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  work = await tempDir('refs');
  renderer = await createRenderer({ now: () => 0, workDir: work.path, maxParallel: 2, searchPath: process.env.PATH });
});

afterAll(async () => {
  await renderer?.close();
  await work?.remove();
});

describe.concurrent('Model A start image', () => {
  it('is exactly the first frame, and the video then moves on from it', async () => {
    const image = await solidImage(MAGENTA, 640, 360);
    const job = await jobFor('motion-lite-v1', { duration: '4' }, { firstFrame: image });
    const file = await renderer.render(job);
    expect(colourDistance(await frameColour(file.path, 0), MAGENTA)).toBeLessThanOrEqual(CLOSE);
    // By the last frame the image has drifted left: its right edge shows the generated background.
    const rightEdge = await frameColour(file.path, 95, { x: 830, y: 200, w: 20, h: 40 });
    expect(colourDistance(rightEdge, MAGENTA)).toBeGreaterThan(40);
  });

  it('fits an odd-sized portrait image (333x777) into 16:9 with padding at the sides', async () => {
    const image = await solidImage(RED, 333, 777);
    const job = await jobFor('motion-lite-v1', { duration: '4', quality: '480p', size: '16:9' }, { firstFrame: image });
    const file = await renderer.render(job);
    const video = (await ffprobe(file.path)).streams.find((s) => s.codec_type === 'video')!;
    expect([video.width, video.height]).toEqual([854, 480]);
    expect(
      colourDistance(await frameColour(file.path, 0, { x: 377, y: 140, w: 100, h: 200 }), RED),
    ).toBeLessThanOrEqual(CLOSE);
    expect(colourDistance(await frameColour(file.path, 0, { x: 0, y: 140, w: 60, h: 200 }), BLACK)).toBeLessThanOrEqual(
      CLOSE,
    );
  });

  it('fits a very wide odd-sized image (1001x99) into 9:16 with padding above and below', async () => {
    const image = await solidImage(BLUE, 1001, 99);
    const job = await jobFor('motion-lite-v1', { duration: '4', quality: '480p', size: '9:16' }, { firstFrame: image });
    const file = await renderer.render(job);
    const video = (await ffprobe(file.path)).streams.find((s) => s.codec_type === 'video')!;
    expect([video.width, video.height]).toEqual([480, 854]);
    expect(
      colourDistance(await frameColour(file.path, 0, { x: 140, y: 417, w: 200, h: 20 }), BLUE),
    ).toBeLessThanOrEqual(CLOSE);
    expect(
      colourDistance(await frameColour(file.path, 0, { x: 140, y: 0, w: 200, h: 100 }), BLACK),
    ).toBeLessThanOrEqual(CLOSE);
  });
});

describe.concurrent('Model B first and last frames', () => {
  const size = { duration: '3', size: '1:1' };

  it('starts on the first ref, ends on the last ref, and swapping the refs swaps the frames', async () => {
    const [red, blue] = await Promise.all([solidImage(RED, 300, 200), solidImage(BLUE, 128, 512)]);
    const forward = await renderer.render(await jobFor('keyframe-pro-v2', size, { firstFrame: red, lastFrame: blue }));
    const swapped = await renderer.render(await jobFor('keyframe-pro-v2', size, { firstFrame: blue, lastFrame: red }));
    const centre = { x: 310, y: 310, w: 100, h: 100 };
    const [fFirst, fLast, sFirst, sLast] = await Promise.all([
      frameColour(forward.path, 0, centre),
      frameColour(forward.path, 71, centre),
      frameColour(swapped.path, 0, centre),
      frameColour(swapped.path, 71, centre),
    ]);
    expect(colourDistance(fFirst, RED)).toBeLessThanOrEqual(CLOSE);
    expect(colourDistance(fLast, BLUE)).toBeLessThanOrEqual(CLOSE);
    expect(colourDistance(sFirst, BLUE)).toBeLessThanOrEqual(CLOSE);
    expect(colourDistance(sLast, RED)).toBeLessThanOrEqual(CLOSE);
    // Halfway through the cross-fade the centre is a mix of both.
    const middle = await frameColour(forward.path, 36, centre);
    expect(colourDistance(middle, RED)).toBeGreaterThan(40);
    expect(colourDistance(middle, BLUE)).toBeGreaterThan(40);
  });

  it('uses a generated frame for the missing end when only the first ref is given, and vice versa', async () => {
    const red = await solidImage(RED, 400, 400);
    const onlyFirst = await renderer.render(await jobFor('keyframe-pro-v2', size, { firstFrame: red }));
    const onlyLast = await renderer.render(await jobFor('keyframe-pro-v2', size, { lastFrame: red }));
    const centre = { x: 310, y: 310, w: 100, h: 100 };
    expect(colourDistance(await frameColour(onlyFirst.path, 0, centre), RED)).toBeLessThanOrEqual(CLOSE);
    expect(colourDistance(await frameColour(onlyFirst.path, 71, centre), RED)).toBeGreaterThan(40);
    expect(colourDistance(await frameColour(onlyLast.path, 71, centre), RED)).toBeLessThanOrEqual(CLOSE);
    expect(colourDistance(await frameColour(onlyLast.path, 0, centre), RED)).toBeGreaterThan(40);
  });
});
