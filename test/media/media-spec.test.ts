// mediaSpecFor turns catalogue params into the file to make: sizes, seconds, audio, count, reference mode.
import { describe, expect, it } from 'vitest';
import { IMAGE_SIZES, mediaSpecFor, VIDEO_SIZES, videoSize } from '../../src/domain/media-spec.js';
import { model, resolvedParams } from './media-test-kit.js';

describe('mediaSpecFor', () => {
  it('gives the default Model A output: 4 s of 854x480 at 24 fps, no audio, one output, start-image mode', async () => {
    const a = await model('motion-lite-v1');
    expect(mediaSpecFor(a, resolvedParams(a, {}))).toEqual({
      kind: 'video',
      format: 'mp4',
      mimeType: 'video/mp4',
      count: 1,
      width: 854,
      height: 480,
      durationSeconds: 4,
      fps: 24,
      audio: false,
      quality: '480p',
      aspect: '16:9',
      referenceMode: 'start',
    });
  });

  it('uses output.default_quality for Model B, which has no quality group', async () => {
    const b = await model('keyframe-pro-v2');
    const spec = mediaSpecFor(b, resolvedParams(b, { size: '9:16', audio: 'on', count: '3', duration: '15' }));
    expect(spec).toMatchObject({
      width: 720,
      height: 1280,
      quality: '720p',
      audio: true,
      count: 3,
      durationSeconds: 15,
      referenceMode: 'first-last',
    });
  });

  it('fills defaults from the catalogue when a param is missing', async () => {
    const b = await model('keyframe-pro-v2');
    expect(mediaSpecFor(b, {})).toMatchObject({ durationSeconds: 3, width: 1280, height: 720, count: 1, audio: false });
  });

  it('describes the example kinds: image size, music length, 3d detail', async () => {
    const image = await model('still-sketch-v1');
    expect(mediaSpecFor(image, { size: '3:4', count: '2' })).toMatchObject({
      format: 'png',
      width: 768,
      height: 1024,
      count: 2,
    });
    const music = await model('tone-music-v1');
    expect(mediaSpecFor(music, { duration: '30' })).toMatchObject({ format: 'm4a', durationSeconds: 30, audio: true });
    const mesh = await model('mesh-blocks-v1');
    expect(mediaSpecFor(mesh, { detail: 'high' })).toMatchObject({ format: 'glb', detail: 'high', audio: false });
  });

  it('documents even sizes for every quality and aspect', () => {
    expect(VIDEO_SIZES['480p']).toEqual({
      '16:9': { width: 854, height: 480 },
      '9:16': { width: 480, height: 854 },
      '1:1': { width: 480, height: 480 },
      '4:3': { width: 640, height: 480 },
      '3:4': { width: 480, height: 640 },
      '21:9': { width: 1120, height: 480 },
    });
    expect(VIDEO_SIZES['720p']!['21:9']).toEqual({ width: 1680, height: 720 });
    expect(IMAGE_SIZES['16:9']).toEqual({ width: 1024, height: 576 });
    for (const sizes of [
      ...Object.values(VIDEO_SIZES).flatMap((q) => Object.values(q)),
      ...Object.values(IMAGE_SIZES),
    ]) {
      expect(sizes.width % 2).toBe(0);
      expect(sizes.height % 2).toBe(0);
    }
    expect(videoSize('480p', '640x360')).toEqual({ width: 640, height: 360 });
  });
});
