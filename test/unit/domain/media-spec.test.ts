// What file a generation makes: its size from quality and aspect, its seconds, audio, count and reference mode.
import { describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../../src/domain/catalogue-schema.js';
import { IMAGE_SIZES, imageSize, mediaSpecFor, VIDEO_SIZES, videoSize } from '../../../src/domain/media-spec.js';
import { fixtureModel } from '../../helpers/catalogue.js';

/** Params with every group's default filled in, as the domain hands them to the renderer. */
const resolvedParams = (entry: ModelEntry, params: Record<string, string>): Record<string, string> => ({
  ...Object.fromEntries(entry.option_groups.map((g) => [g.name, g.default])),
  ...params,
});

/** A catalogue entry as an operator could write it: without some groups, output fields or reference slots. */
function trimmed(slug: string, change: (entry: ModelEntry) => void): ModelEntry {
  const entry = structuredClone(fixtureModel(slug));
  change(entry);
  return entry;
}
const withoutGroup = (entry: ModelEntry, name: string) => {
  entry.option_groups = entry.option_groups.filter((g) => g.name !== name);
};

describe('mediaSpecFor', () => {
  it('gives the default Model A output: 4 s of 854x480 at 24 fps, no audio, one output, start-image mode', () => {
    const a = fixtureModel('motion-lite-v1');
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

  it('uses output.default_quality for Model B, which has no quality group, and its first and last frames', () => {
    const b = fixtureModel('keyframe-pro-v2');
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

  it('fills defaults from the catalogue when a param is missing', () => {
    const b = fixtureModel('keyframe-pro-v2');
    expect(mediaSpecFor(b, {})).toMatchObject({ durationSeconds: 3, width: 1280, height: 720, count: 1, audio: false });
  });

  it('takes the quality asked for over the catalogue default, and audio only when it is "on"', () => {
    const a = fixtureModel('motion-lite-v1');
    expect(mediaSpecFor(a, resolvedParams(a, { quality: '1080p', audio: 'on' }))).toMatchObject({
      quality: '1080p',
      width: 1920,
      height: 1080,
      audio: true,
    });
    expect(mediaSpecFor(a, resolvedParams(a, { audio: 'off' })).audio).toBe(false);
  });

  it('falls back to 480p, 16:9 and 4 s for a video model whose entry lacks those groups and defaults', () => {
    const bare = trimmed('keyframe-pro-v2', (entry) => {
      entry.output.default_quality = undefined;
      entry.reference_inputs = null;
      for (const name of ['size', 'duration', 'count']) withoutGroup(entry, name);
    });
    expect(mediaSpecFor(bare, {})).toMatchObject({
      quality: '480p',
      aspect: '16:9',
      width: 854,
      height: 480,
      durationSeconds: 4,
      count: 1,
      referenceMode: 'start',
    });
  });

  it('reads count and duration as whole positive numbers, else the default', () => {
    const a = fixtureModel('motion-lite-v1');
    for (const bad of ['0', '-3', '2.5', 'two', ''])
      expect(mediaSpecFor(a, resolvedParams(a, { count: bad, duration: bad }))).toMatchObject({
        count: 1,
        durationSeconds: 4,
      });
    expect(mediaSpecFor(a, resolvedParams(a, { count: '2', duration: '8' }))).toMatchObject({
      count: 2,
      durationSeconds: 8,
    });
  });

  it('describes an image: its size, no audio, and 1:1 when the entry has no size group', () => {
    const image = fixtureModel('still-sketch-v1');
    expect(mediaSpecFor(image, { size: '3:4', count: '2' })).toEqual({
      kind: 'image',
      format: 'png',
      mimeType: 'image/png',
      count: 2,
      width: 768,
      height: 1024,
      audio: false,
      aspect: '3:4',
    });
    const square = trimmed('still-sketch-v1', (entry) => withoutGroup(entry, 'size'));
    expect(mediaSpecFor(square, {})).toMatchObject({ aspect: '1:1', width: 1024, height: 1024 });
  });

  it('describes music: its seconds (10 when not given), with audio', () => {
    const music = fixtureModel('tone-music-v1');
    expect(mediaSpecFor(music, { duration: '30' })).toEqual({
      kind: 'music',
      format: 'm4a',
      mimeType: 'audio/mp4',
      count: 1,
      durationSeconds: 30,
      audio: true,
    });
    const bare = trimmed('tone-music-v1', (entry) => withoutGroup(entry, 'duration'));
    expect(mediaSpecFor(bare, {}).durationSeconds).toBe(10);
  });

  it('describes a 3d model: its detail (low when not given), no audio', () => {
    const mesh = fixtureModel('mesh-blocks-v1');
    expect(mediaSpecFor(mesh, { detail: 'high' })).toEqual({
      kind: '3d',
      format: 'glb',
      mimeType: 'model/gltf-binary',
      count: 1,
      audio: false,
      detail: 'high',
    });
    const bare = trimmed('mesh-blocks-v1', (entry) => withoutGroup(entry, 'detail'));
    expect(mediaSpecFor(bare, {}).detail).toBe('low');
  });
});

describe('videoSize', () => {
  it('sets the short side from the quality and the long side from the aspect, landscape or portrait', () => {
    expect(videoSize('720p', '21:9')).toEqual({ width: 1680, height: 720 });
    expect(videoSize('480p', '9:16')).toEqual({ width: 480, height: 854 });
    expect(videoSize('720p', '4:3')).toEqual({ width: 960, height: 720 });
    expect(videoSize('720p', '1:1')).toEqual({ width: 720, height: 720 });
    expect(videoSize('1080p', '16:10')).toEqual({ width: 1728, height: 1080 });
  });

  it('reads decimal aspects, and spaces around quality and aspect', () => {
    expect(videoSize('480p', '2.35:1')).toEqual({ width: 1128, height: 480 });
    expect(videoSize('480p', '1:2.35')).toEqual({ width: 480, height: 1128 });
    expect(videoSize(' 720p ', ' 4:3 ')).toEqual({ width: 960, height: 720 });
  });

  it('takes 480p and 16:9 for a quality or an aspect it cannot read', () => {
    for (const quality of ['hd', 'x720p', '720px', 'p'])
      expect(videoSize(quality, '16:9'), quality).toEqual({ width: 854, height: 480 });
    for (const aspect of ['a4:3', '4:3x', 'wide', '0:9', '16:0', '4:3:2'])
      expect(videoSize('480p', aspect), aspect).toEqual({ width: 854, height: 480 });
  });

  it('takes an exact WxH size as it is, made even and at least 2', () => {
    expect(videoSize('480p', '640x360')).toEqual({ width: 640, height: 360 });
    expect(videoSize('480p', ' 1280x720 ')).toEqual({ width: 1280, height: 720 });
    expect(videoSize('480p', '641x361')).toEqual({ width: 642, height: 362 });
    expect(videoSize('480p', '1x1')).toEqual({ width: 2, height: 2 });
    for (const aspect of ['a640x360', '640x360p', 'x360'])
      expect(videoSize('480p', aspect), aspect).toEqual({ width: 854, height: 480 });
  });
});

describe('imageSize', () => {
  it('sets the long side to 1024 and the short one from the aspect, or takes an exact size', () => {
    expect(imageSize('16:9')).toEqual({ width: 1024, height: 576 });
    expect(imageSize('3:4')).toEqual({ width: 768, height: 1024 });
    expect(imageSize('1:1')).toEqual({ width: 1024, height: 1024 });
    expect(imageSize('16:9', 512)).toEqual({ width: 512, height: 288 });
    expect(imageSize('640x360')).toEqual({ width: 640, height: 360 });
    expect(imageSize('wide')).toEqual({ width: 1024, height: 1024 });
    expect(imageSize('0:1')).toEqual({ width: 1024, height: 1024 });
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
    expect(IMAGE_SIZES['16:9']).toEqual({ width: 1024, height: 576 });
    for (const sizes of [
      ...Object.values(VIDEO_SIZES).flatMap((q) => Object.values(q)),
      ...Object.values(IMAGE_SIZES),
    ]) {
      expect(sizes.width % 2).toBe(0);
      expect(sizes.height % 2).toBe(0);
    }
  });
});
