// The WebCodecs encoder configurations the browser renderer asks for: codec strings whose level fits the frame, rates.
export type BrowserVideoCodec = 'avc' | 'vp9';
export type BrowserAudioCodec = 'aac' | 'opus';

/** Both the tone of a video and the music are mono; Opus runs at 48 kHz whatever it is given. */
export const AUDIO_SAMPLE_RATE = 48_000;
/** 96 kb/s, as the ffmpeg renderer asks of AAC; Opus sounds better than AAC at the same rate. */
const AUDIO_BITRATE = 96_000;

/** A configuration to hand VideoEncoder, and what each frame's encode() call adds to it (a quantizer). */
export interface VideoEncoding {
  codec: BrowserVideoCodec;
  config: VideoEncoderConfig;
  frameOptions: VideoEncoderEncodeOptions;
}

export interface AudioEncoding {
  codec: BrowserAudioCodec;
  config: AudioEncoderConfig;
}

/** H.264 levels by the largest frame they allow, in 16x16 macroblocks (ITU-T H.264 table A-1), 3.0 up. */
const AVC_LEVELS: readonly [level: number, maxMacroblocks: number][] = [
  [0x1e, 1_620],
  [0x1f, 3_600],
  [0x20, 5_120],
  [0x28, 8_192],
  [0x32, 22_080],
  [0x33, 36_864],
];
/** VP9 levels by the largest picture they allow, in luma samples (the VP9 bitstream spec's level table). */
const VP9_LEVELS: readonly [level: number, maxSamples: number][] = [
  [10, 36_864],
  [11, 73_728],
  [20, 122_880],
  [21, 245_760],
  [30, 552_960],
  [31, 983_040],
  [40, 2_228_224],
  [50, 8_912_896],
  [60, 35_651_584],
];

/**
 * Constant quality first, as the ffmpeg renderer's -crf: the quantizers are the middle of each codec's useful range
 * (what Mediabunny's `Quality('medium')` asks). Where an encoder has no quantizer mode (Chromium's H.264 on Linux),
 * a variable rate: `medium`'s too, 3.23 Mb/s for 1080p H.264 (VP9 needs 60% of it), scaled by area.
 */
const QUANTIZER: Record<BrowserVideoCodec, number> = { avc: 29, vp9: 36 };
const RATE_EFFICIENCY: Record<BrowserVideoCodec, number> = { avc: 1, vp9: 0.6 };

function codecString(codec: BrowserVideoCodec, width: number, height: number): string {
  if (codec === 'avc') {
    const macroblocks = Math.ceil(width / 16) * Math.ceil(height / 16);
    const level = (AVC_LEVELS.find(([, max]) => macroblocks <= max) ?? AVC_LEVELS[AVC_LEVELS.length - 1])[0];
    return `avc1.6400${level.toString(16)}`; // High profile, no constraint flags
  }
  const level = (VP9_LEVELS.find(([, max]) => width * height <= max) ?? VP9_LEVELS[VP9_LEVELS.length - 1])[0];
  return `vp09.00.${level}.08`; // profile 0, 8 bits
}

function variableBitrate(codec: BrowserVideoCodec, width: number, height: number): number {
  const scale = ((width * height) / (1920 * 1080)) ** 0.95;
  return Math.ceil((3_230_000 * scale * RATE_EFFICIENCY[codec]) / 1000) * 1000;
}

/** The configurations to try for this codec and size, best first. */
export function videoEncodings(codec: BrowserVideoCodec, width: number, height: number): VideoEncoding[] {
  const base: VideoEncoderConfig = {
    codec: codecString(codec, width, height),
    width,
    height,
    // 'quality' lets the encoder take its time and never drop a frame; avcC boxes (not Annex B) are what MP4 holds.
    latencyMode: 'quality',
    ...(codec === 'avc' ? { avc: { format: 'avc' } } : {}),
  };
  // lib.dom types only H.264's per-frame quantizer; Chromium reads VP9's under its own key in the same way.
  const quantizer = { [codec]: { quantizer: QUANTIZER[codec] } } as VideoEncoderEncodeOptions;
  return [
    { codec, config: { ...base, bitrateMode: 'quantizer' }, frameOptions: quantizer },
    {
      codec,
      config: { ...base, bitrateMode: 'variable', bitrate: variableBitrate(codec, width, height) },
      frameOptions: {},
    },
  ];
}

export function audioEncoding(codec: BrowserAudioCodec): AudioEncoding {
  return {
    codec,
    config: {
      codec: codec === 'aac' ? 'mp4a.40.2' : 'opus', // AAC-LC
      sampleRate: AUDIO_SAMPLE_RATE,
      numberOfChannels: 1,
      bitrate: AUDIO_BITRATE,
      // The AudioSpecificConfig as the decoder description (MP4's esds), not ADTS headers on every frame.
      ...(codec === 'aac' ? { aac: { format: 'aac' } } : {}),
    },
  };
}
