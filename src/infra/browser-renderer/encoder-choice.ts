// Which encoders this browser has, asked of WebCodecs through Mediabunny: H.264 else VP9 for video, AAC else Opus for sound.
import { getFirstEncodableAudioCodec, getFirstEncodableVideoCodec, Quality } from 'mediabunny';

export type BrowserVideoCodec = 'avc' | 'vp9';
export type BrowserAudioCodec = 'aac' | 'opus';

/** H.264 first: every browser plays it. VP9 in MP4 is the second choice (Chromium plays it: the browser tests). */
export const VIDEO_CODECS: readonly BrowserVideoCodec[] = ['avc', 'vp9'];
/** AAC first: the ffmpeg renderer's choice. Chromium has no AAC encoder on Linux, so there it is Opus. */
export const AUDIO_CODECS: readonly BrowserAudioCodec[] = ['aac', 'opus'];

/** Both the tone of a video and the music are mono; Opus runs at 48 kHz whatever it is given. */
export const AUDIO_SAMPLE_RATE = 48_000;

export interface EncoderChoice {
  /** The first of the preferred video codecs that encodes this size, or null (no WebCodecs, or no such encoder). */
  video(width: number, height: number): Promise<BrowserVideoCodec | null>;
  /** The first of the preferred audio codecs that encodes mono at AUDIO_SAMPLE_RATE, or null. */
  audio(): Promise<BrowserAudioCodec | null>;
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

/** Mediabunny memoises WebCodecs' isConfigSupported per configuration; the WebP probe is kept here, per renderer. */
export function createEncoderChoice(preferences: EncoderPreferences = {}): EncoderChoice {
  const videoCodecs = [...(preferences.videoCodecs ?? VIDEO_CODECS)];
  const audioCodecs = [...(preferences.audioCodecs ?? AUDIO_CODECS)];
  const canvas = typeof OffscreenCanvas === 'function';
  let webp: Promise<boolean> | undefined;
  return {
    canvas,
    video: (width, height) =>
      getFirstEncodableVideoCodec(videoCodecs, {
        width,
        height,
        quality: new Quality('medium'),
      }) as Promise<BrowserVideoCodec | null>,
    audio: () =>
      getFirstEncodableAudioCodec(audioCodecs, {
        numberOfChannels: 1,
        sampleRate: AUDIO_SAMPLE_RATE,
        quality: new Quality({ bitrate: 96_000 }),
      }) as Promise<BrowserAudioCodec | null>,
    webp: () => (webp ??= canvas ? writesWebp() : Promise.resolve(false)),
  };
}
