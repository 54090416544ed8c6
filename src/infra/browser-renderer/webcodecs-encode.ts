// Frames and sound through WebCodecs' encoders, every packet handed to the muxer in order, with the first error kept.
import type { AudioEncoding, VideoEncoding } from './codec-config.js';
import type { VideoScene } from './video-scene.js';

/** A keyframe every 2 s, as the ffmpeg renderer writes (-g 2*fps): seeking stays quick. */
const KEYFRAME_SECONDS = 2;
/** Frames waiting in the encoder before painting pauses: the canvas is not copied faster than it is encoded. */
const MAX_QUEUED = 4;

export type ChunkSink<Chunk, Meta> = (chunk: Chunk, meta: Meta | undefined) => Promise<void>;

/** What VideoEncoder and AudioEncoder share and the runner needs. */
interface Encoder extends EventTarget {
  readonly encodeQueueSize: number;
  readonly state: CodecState;
  flush(): Promise<void>;
  close(): void;
}

/**
 * Opens an encoder, lets `feed` give it input, flushes it and waits for every packet to be written. The encoder's
 * own error (it closes itself then) or the sink's rejects the whole; the encoder is closed either way.
 */
async function runEncoder<Chunk, Meta, E extends Encoder>(
  open: (init: { output: (chunk: Chunk, meta?: Meta) => void; error: (error: DOMException) => void }) => E,
  sink: ChunkSink<Chunk, Meta>,
  feed: (encoder: E, room: () => Promise<void>) => Promise<void>,
): Promise<void> {
  let failure: unknown;
  let wake: (() => void) | undefined;
  let written = Promise.resolve();
  const encoder = open({
    output: (chunk, meta) => {
      written = written.then(() => sink(chunk, meta));
      written.catch((error: unknown) => (failure ??= error));
    },
    error: (error) => {
      failure ??= error;
      wake?.();
    },
  });
  /** Resolves once the encoder has room (or has failed): input never piles up in it. */
  const room = async () => {
    while (failure === undefined && encoder.encodeQueueSize >= MAX_QUEUED)
      await new Promise<void>((resolve) => {
        wake = resolve;
        encoder.addEventListener('dequeue', () => resolve(), { once: true });
      });
    if (failure !== undefined) throw failure;
  };
  try {
    await feed(encoder, room);
    await encoder.flush().catch((error: unknown) => {
      throw failure ?? error;
    });
    await written;
    if (failure !== undefined) throw failure;
  } finally {
    if (encoder.state !== 'closed') encoder.close();
  }
}

/** Paints and encodes every frame of the scene, a keyframe every KEYFRAME_SECONDS. */
export function encodeVideo(
  scene: VideoScene,
  encoding: VideoEncoding,
  sink: ChunkSink<EncodedVideoChunk, EncodedVideoChunkMetadata>,
): Promise<void> {
  const frameMicros = 1e6 / scene.fps;
  const keyEvery = Math.max(1, Math.round(KEYFRAME_SECONDS * scene.fps));
  return runEncoder(
    (init) => new VideoEncoder(init),
    sink,
    async (encoder, room) => {
      encoder.configure(encoding.config);
      for (let n = 0; n < scene.frames; n += 1) {
        await room();
        scene.paint(n);
        const frame = new VideoFrame(scene.canvas, {
          timestamp: Math.round(n * frameMicros),
          duration: Math.round(frameMicros),
        });
        try {
          encoder.encode(frame, { ...encoding.frameOptions, keyFrame: n % keyEvery === 0 });
        } finally {
          frame.close();
        }
      }
    },
  );
}

export interface PcmTrack {
  encoding: AudioEncoding;
  samples: Float32Array<ArrayBuffer>;
  sampleRate: number;
}

/** Encodes a mono track, handed over a second at a time. */
export function encodeAudio(
  track: PcmTrack,
  sink: ChunkSink<EncodedAudioChunk, EncodedAudioChunkMetadata>,
): Promise<void> {
  return runEncoder(
    (init) => new AudioEncoder(init),
    sink,
    async (encoder, room) => {
      encoder.configure(track.encoding.config);
      for (let start = 0; start < track.samples.length; start += track.sampleRate) {
        await room();
        const piece = track.samples.subarray(start, start + track.sampleRate);
        const data = new AudioData({
          format: 'f32-planar',
          sampleRate: track.sampleRate,
          numberOfChannels: 1,
          numberOfFrames: piece.length,
          timestamp: Math.round((start * 1e6) / track.sampleRate),
          data: piece,
        });
        try {
          encoder.encode(data);
        } finally {
          data.close();
        }
      }
    },
  );
}
