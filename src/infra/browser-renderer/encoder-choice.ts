// Which encoders this browser has, asked of WebCodecs: H.264 else VP9 for video, AAC else Opus for sound.
import {
  type AudioEncoding,
  audioEncoding,
  type BrowserAudioCodec,
  type BrowserVideoCodec,
  type VideoEncoding,
  videoEncodings,
} from './codec-config.js';

export { AUDIO_SAMPLE_RATE, type BrowserAudioCodec, type BrowserVideoCodec } from './codec-config.js';
export type { AudioEncoding, VideoEncoding } from './codec-config.js';

/** H.264 first: every browser plays it. VP9 in MP4 is the second choice (Chromium plays it: the browser tests). */
export const VIDEO_CODECS: readonly BrowserVideoCodec[] = ['avc', 'vp9'];
/** AAC first: the ffmpeg renderer's choice. Chromium has no AAC encoder on Linux, so there it is Opus. */
export const AUDIO_CODECS: readonly BrowserAudioCodec[] = ['aac', 'opus'];

export interface EncoderChoice {
  /** The first of the preferred video codecs that encodes this size, or null (no WebCodecs, or no such encoder). */
  video(width: number, height: number): Promise<VideoEncoding | null>;
  /** The first of the preferred audio codecs that encodes mono at AUDIO_SAMPLE_RATE, or null. */
  audio(): Promise<AudioEncoding | null>;
  /** Whether OffscreenCanvas writes WebP here (Chromium and Firefox do; Safari answers PNG). */
  webp(): Promise<boolean>;
  /** Whether OffscreenCanvas exists at all (stills are drawn on it). */
  readonly canvas: boolean;
}

export interface EncoderPreferences {
  videoCodecs?: readonly BrowserVideoCodec[];
  audioCodecs?: readonly BrowserAudioCodec[];
}

/** A canvas asked for a type it cannot write answers PNG (the canvas spec's rule), so the answer's type tells. */
async function writesWebp(): Promise<boolean> {
  const canvas = new OffscreenCanvas(1, 1);
  canvas.getContext('2d');
  const blob = await canvas.convertToBlob({ type: 'image/webp' }).catch(() => undefined);
  return blob?.type === 'image/webp';
}

/** isConfigSupported rejects a configuration it cannot read at all (a TypeError): that is a no as well. */
async function firstSupported<T extends { config: unknown }>(
  candidates: T[],
  supports: (config: T['config']) => Promise<{ supported?: boolean }>,
): Promise<T | null> {
  for (const candidate of candidates) {
    const answer = await supports(candidate.config).catch(() => ({ supported: false }));
    if (answer.supported) return candidate;
  }
  return null;
}

/** Each answer is asked of WebCodecs once per renderer and size: a page renders many outputs of a few sizes. */
export function createEncoderChoice(preferences: EncoderPreferences = {}): EncoderChoice {
  const videoCodecs = [...(preferences.videoCodecs ?? VIDEO_CODECS)];
  const audioCodecs = [...(preferences.audioCodecs ?? AUDIO_CODECS)];
  const canvas = typeof OffscreenCanvas === 'function';
  const videoBySize = new Map<string, Promise<VideoEncoding | null>>();
  let audio: Promise<AudioEncoding | null> | undefined;
  let webp: Promise<boolean> | undefined;
  return {
    canvas,
    video(width, height) {
      if (typeof VideoEncoder !== 'function') return Promise.resolve(null);
      const key = `${width}x${height}`;
      let found = videoBySize.get(key);
      if (!found) {
        const candidates = videoCodecs.flatMap((codec) => videoEncodings(codec, width, height));
        found = firstSupported(candidates, (config) => VideoEncoder.isConfigSupported(config));
        videoBySize.set(key, found);
      }
      return found;
    },
    audio() {
      if (typeof AudioEncoder !== 'function') return Promise.resolve(null);
      audio ??= firstSupported(audioCodecs.map(audioEncoding), (config) => AudioEncoder.isConfigSupported(config));
      return audio;
    },
    webp: () => (webp ??= canvas ? writesWebp() : Promise.resolve(false)),
  };
}
