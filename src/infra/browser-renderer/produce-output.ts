// One output's bytes in a browser: WebCodecs for sound and video, muxed by Mediabunny; OffscreenCanvas for stills.
import { buildGlb } from '../ffmpeg/glb-cube.js';
import { paletteFor } from '../ffmpeg/palette.js';
import type { RenderJob } from '../renderer.js';
import { AUDIO_SAMPLE_RATE, type EncoderChoice } from './encoder-choice.js';
import { FALLBACK_DESCRIPTIONS, type FallbackName, type LoadFallback } from './fallback-media.js';
import { encodeStill, paintStill } from './still-image.js';
import { melodySamples, toneSamples } from './tones.js';
import { createVideoScene } from './video-scene.js';

export interface ProducedOutput {
  data: Uint8Array;
  /** The spec's type, except where the browser could not write it (WebP) and said so. */
  mimeType: string;
}

export interface ProduceDeps {
  encoders: EncoderChoice;
  loadFallback: LoadFallback;
  fontFamily: string;
  /** Logs `message` the first time `reason` comes up in this renderer, never again. */
  warnOnce(reason: string, message: string): void;
}

/**
 * Mediabunny (31 KB min+gzip) is a chunk of its own, fetched by the first video or music render: a page that
 * renders none (a fault-rule story, a 422) never loads it. Choosing the encoders needs only WebCodecs.
 */
const muxer = () => import('./mp4-writer.js');

async function fallback(deps: ProduceDeps, name: FallbackName, why: string, mimeType: string): Promise<ProducedOutput> {
  deps.warnOnce(
    name,
    `browser renderer: WARNING ${why}; such outputs are copies of fixtures/${name} (${FALLBACK_DESCRIPTIONS[name]}).`,
  );
  return { data: await deps.loadFallback(name), mimeType };
}

async function video(job: RenderJob, deps: ProduceDeps): Promise<ProducedOutput> {
  const { width = 854, height = 480 } = job.spec;
  const encoding = await deps.encoders.video(width, height);
  if (!encoding)
    return fallback(
      deps,
      'fallback.mp4',
      `this browser has no WebCodecs H.264 or VP9 encoder for ${width}x${height}`,
      job.spec.mimeType,
    );
  const scene = await createVideoScene(job, deps.fontFamily);
  const audioEncoding = job.spec.audio ? await deps.encoders.audio() : null;
  if (job.spec.audio && !audioEncoding)
    // The picture is still right (length, size, colours); the fallback clip has no sound either, and is the wrong size.
    deps.warnOnce(
      'no-audio',
      'browser renderer: WARNING this browser has no WebCodecs AAC or Opus encoder; videos asked with audio=on carry no sound.',
    );
  const audio = audioEncoding
    ? {
        encoding: audioEncoding,
        sampleRate: AUDIO_SAMPLE_RATE,
        samples: toneSamples(paletteFor(job.index).toneHz, AUDIO_SAMPLE_RATE, scene.frames / scene.fps),
      }
    : undefined;
  const { writeVideoMp4 } = await muxer();
  return { data: await writeVideoMp4(scene, encoding, audio), mimeType: job.spec.mimeType };
}

async function music(job: RenderJob, deps: ProduceDeps): Promise<ProducedOutput> {
  const encoding = await deps.encoders.audio();
  if (!encoding)
    return fallback(deps, 'fallback.m4a', 'this browser has no WebCodecs AAC or Opus encoder', job.spec.mimeType);
  const track = {
    encoding,
    sampleRate: AUDIO_SAMPLE_RATE,
    samples: melodySamples(job.index, AUDIO_SAMPLE_RATE, job.spec.durationSeconds ?? 10),
  };
  // The same tags as music-plan.ts: which request this was, readable in any player.
  const tags = { title: `${job.modelSlug} #${job.index + 1} ${job.identityLabel}`, comment: job.prompt.slice(0, 200) };
  const { writeAudioMp4 } = await muxer();
  return { data: await writeAudioMp4(track, tags), mimeType: job.spec.mimeType };
}

async function still(job: RenderJob, deps: ProduceDeps): Promise<ProducedOutput> {
  if (!deps.encoders.canvas) return fallback(deps, 'fallback.png', 'this browser has no OffscreenCanvas', 'image/png');
  const wanted = job.spec.format === 'webp' ? 'image/webp' : 'image/png';
  const encoded = await encodeStill(paintStill(job, deps.fontFamily), wanted);
  if (encoded.type !== wanted)
    deps.warnOnce(
      `still-${wanted}`,
      `browser renderer: WARNING this browser cannot write ${wanted}; those outputs are ${encoded.type} (their mime type says so).`,
    );
  return { data: encoded.data, mimeType: encoded.type === wanted ? job.spec.mimeType : encoded.type };
}

export function produceOutput(job: RenderJob, deps: ProduceDeps): Promise<ProducedOutput> {
  switch (job.spec.format) {
    case 'mp4':
      return video(job, deps);
    case 'png':
    case 'webp':
      return still(job, deps);
    case 'm4a':
      return music(job, deps);
    case 'mp3':
      // No browser has an MP3 encoder in WebCodecs, and there is no MP3 fixture: the fixture renderer refuses it too.
      return Promise.reject(
        new Error('no browser can write MP3 output (WebCodecs has no MP3 encoder); use a model whose output is m4a'),
      );
    case 'glb':
      return Promise.resolve({ data: buildGlb(job), mimeType: job.spec.mimeType });
  }
}
