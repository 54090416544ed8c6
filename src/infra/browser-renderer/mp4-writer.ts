// MP4 files from WebCodecs encoders, muxed by Mediabunny: a painted video with an optional tone, or sound alone (.m4a).
import {
  AudioSample,
  AudioSampleSource,
  BufferTarget,
  CanvasSource,
  type MetadataTags,
  Mp4OutputFormat,
  Output,
  Quality,
} from 'mediabunny';
import type { BrowserAudioCodec, BrowserVideoCodec } from './encoder-choice.js';
import type { VideoScene } from './video-scene.js';

/** 96 kb/s, as the ffmpeg renderer asks of AAC; Opus sounds better than AAC at the same rate. */
const AUDIO_QUALITY = new Quality({ bitrate: 96_000 });
/** A keyframe every 2 s, as the ffmpeg renderer writes (-g 2*fps): seeking stays quick. */
const KEYFRAME_SECONDS = 2;

export interface PcmTrack {
  codec: BrowserAudioCodec;
  samples: Float32Array;
  sampleRate: number;
}

/** moov before mdat (ffmpeg's +faststart), built in memory: a <video> starts playing before the download ends. */
function createOutput(): Output<Mp4OutputFormat, BufferTarget> {
  return new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target: new BufferTarget() });
}

function addMono(output: Output, track: PcmTrack): AudioSampleSource {
  const source = new AudioSampleSource({ codec: track.codec, quality: AUDIO_QUALITY });
  output.addAudioTrack(source);
  return source;
}

/** The whole track in one sample: the source cuts it into encoder frames. */
async function writeMono(source: AudioSampleSource, track: PcmTrack): Promise<void> {
  const sample = new AudioSample({
    data: track.samples,
    format: 'f32-planar',
    numberOfChannels: 1,
    sampleRate: track.sampleRate,
    timestamp: 0,
  });
  try {
    await source.add(sample);
  } finally {
    sample.close();
  }
  source.close();
}

/** Finalizes, or cancels on any error so the encoders are closed either way. */
async function finish(output: Output<Mp4OutputFormat, BufferTarget>, write: () => Promise<void>): Promise<Uint8Array> {
  try {
    await output.start();
    await write();
    await output.finalize();
  } catch (error) {
    if (output.state !== 'finalized' && output.state !== 'canceled') await output.cancel();
    throw error;
  }
  return new Uint8Array(output.target.buffer!);
}

export function writeVideoMp4(scene: VideoScene, codec: BrowserVideoCodec, audio?: PcmTrack): Promise<Uint8Array> {
  const output = createOutput();
  const video = new CanvasSource(scene.canvas, {
    codec,
    quality: new Quality('medium'),
    keyFrameInterval: KEYFRAME_SECONDS,
  });
  output.addVideoTrack(video, { frameRate: scene.fps });
  const sound = audio && addMono(output, audio);
  return finish(output, async () => {
    // Sound first and closed at once: the muxer then knows that track is complete and interleaves without waiting.
    if (sound && audio) await writeMono(sound, audio);
    for (let n = 0; n < scene.frames; n += 1) {
      scene.paint(n);
      await video.add(n / scene.fps, 1 / scene.fps);
    }
    video.close();
  });
}

export function writeAudioMp4(track: PcmTrack, tags: MetadataTags): Promise<Uint8Array> {
  const output = createOutput();
  const sound = addMono(output, track);
  output.setMetadataTags(tags);
  return finish(output, () => writeMono(sound, track));
}
