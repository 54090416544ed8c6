// Asks this browser's WebCodecs what it can encode (and its canvas what it can write), codec string by codec string.

const VIDEO = {
  'H.264 Baseline (avc1.42001f)': 'avc1.42001f',
  'H.264 High (avc1.640028)': 'avc1.640028',
  'VP9 (vp09.00.31.08)': 'vp09.00.31.08',
  'VP8 (vp8)': 'vp8',
  'AV1 (av01.0.04M.08)': 'av01.0.04M.08',
  'HEVC (hvc1.1.6.L93.B0)': 'hvc1.1.6.L93.B0',
};
const AUDIO = { 'AAC-LC (mp4a.40.2)': 'mp4a.40.2', Opus: 'opus', FLAC: 'flac', MP3: 'mp3', Vorbis: 'vorbis' };

export async function probeWebCodecs(): Promise<Record<string, boolean | string>> {
  const answers: Record<string, boolean | string> = {
    browser: navigator.userAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent,
    VideoEncoder: typeof VideoEncoder === 'function',
    AudioEncoder: typeof AudioEncoder === 'function',
  };
  for (const [name, codec] of Object.entries(VIDEO)) {
    const config = { codec, width: 854, height: 480, bitrate: 1_000_000, framerate: 24 };
    answers[`video ${name}, 854x480`] =
      typeof VideoEncoder === 'function' && ((await VideoEncoder.isConfigSupported(config)).supported ?? false);
  }
  for (const [name, codec] of Object.entries(AUDIO)) {
    const config = { codec, sampleRate: 48_000, numberOfChannels: 1, bitrate: 96_000 };
    answers[`audio ${name}, 48 kHz mono`] =
      typeof AudioEncoder === 'function' && ((await AudioEncoder.isConfigSupported(config)).supported ?? false);
  }
  for (const type of ['image/png', 'image/webp']) {
    const canvas = new OffscreenCanvas(2, 2);
    canvas.getContext('2d');
    const blob = await canvas.convertToBlob({ type });
    answers[`OffscreenCanvas ${type}`] = blob.type === type;
  }
  return answers;
}
