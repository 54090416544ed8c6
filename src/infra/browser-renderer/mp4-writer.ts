// MP4 files from WebCodecs' packets, muxed by Mediabunny: a painted video with an optional tone, or sound alone (.m4a).
import {
  BufferTarget,
  EncodedAudioPacketSource,
  EncodedPacket,
  EncodedVideoPacketSource,
  type MetadataTags,
  Mp4OutputFormat,
  Output,
} from 'mediabunny';
import type { VideoEncoding } from './codec-config.js';
import type { VideoScene } from './video-scene.js';
import { encodeAudio, encodeVideo, type PcmTrack } from './webcodecs-encode.js';

export type { PcmTrack } from './webcodecs-encode.js';

/**
 * moov before mdat (ffmpeg's +faststart), built in memory: a <video> starts playing before the download ends. The
 * renderer encodes with WebCodecs itself and hands Mediabunny the packets: its own encoding sources would bring
 * their sample conversions into the page (about 20 KB of the pack, min+gzip; bench/RESULTS.md, issue 38).
 */
function createOutput(): Output<Mp4OutputFormat, BufferTarget> {
  return new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target: new BufferTarget() });
}

function addMono(output: Output, track: PcmTrack): EncodedAudioPacketSource {
  const source = new EncodedAudioPacketSource(track.encoding.codec);
  output.addAudioTrack(source);
  return source;
}

async function writeMono(source: EncodedAudioPacketSource, track: PcmTrack): Promise<void> {
  await encodeAudio(track, (chunk, meta) => source.add(EncodedPacket.fromEncodedChunk(chunk), meta));
  source.close();
}

/** Finalizes, or cancels on any error so nothing is left half-written. */
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

export function writeVideoMp4(scene: VideoScene, encoding: VideoEncoding, audio?: PcmTrack): Promise<Uint8Array> {
  const output = createOutput();
  const video = new EncodedVideoPacketSource(encoding.codec);
  output.addVideoTrack(video, { frameRate: scene.fps });
  const sound = audio && addMono(output, audio);
  return finish(output, async () => {
    // Sound first and closed at once: the muxer then knows that track is complete and interleaves without waiting.
    if (sound && audio) await writeMono(sound, audio);
    await encodeVideo(scene, encoding, (chunk, meta) => video.add(EncodedPacket.fromEncodedChunk(chunk), meta));
    video.close();
  });
}

export function writeAudioMp4(track: PcmTrack, tags: MetadataTags): Promise<Uint8Array> {
  const output = createOutput();
  const sound = addMono(output, track);
  output.setMetadataTags(tags);
  return finish(output, () => writeMono(sound, track));
}
