// ffmpeg arguments for a video output: background or reference frames, moving element, progress bar, text, audio.
import { join } from 'node:path';
import type { ReferenceImage, RenderJob } from '../renderer.js';
import { filterOptions, seconds } from './filtergraph.js';
import { paletteFor } from './palette.js';
import { FASTSTART, PRELUDE, type PlanEnv, type PlanFile, type RenderPlan } from './plan-types.js';
import { textOverlay } from './text-overlay.js';

/**
 * x264 settings: ultrafast keeps a 4 s 480p render well under 400 ms on two cores (the picture is flat
 * colour and text, so quality per bit hardly matters); a keyframe every 2 s keeps seeking snappy.
 */
export const VIDEO_ENCODER_ARGS = [
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-crf',
  '23',
  '-pix_fmt',
  'yuv420p',
] as const;
export const AUDIO_ENCODER_ARGS = ['-c:a', 'aac', '-b:a', '96k'] as const;

/** Model B: hold the first frame for a quarter, cross-fade for half, hold the last frame for the final quarter. */
const HOLD_SHARE = 0.25;
/** Model A: the start image drifts left by this share of the width over the whole clip. */
const PAN_SHARE = 0.15;

const EXT: Record<ReferenceImage['format'], string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

export function buildVideoPlan(job: RenderJob, env: PlanEnv): RenderPlan {
  const { spec } = job;
  const W = spec.width ?? 854;
  const H = spec.height ?? 480;
  const fps = spec.fps ?? 24;
  const D = spec.durationSeconds ?? 4;
  const N = Math.max(2, Math.round(D * fps));
  const palette = paletteFor(job.index);
  const files: PlanFile[] = [];
  const inputArgs: string[] = [];
  const graph: string[] = [];
  const size = `${W}x${H}`;
  let inputs = 0;

  /** Each image is an input of exactly one frame: decoded once, fitted once, then repeated by `loop`. */
  const imageInput = (image: ReferenceImage, name: string): string => {
    const path = join(env.tmpDir, `${name}.${EXT[image.format]}`);
    // Loaded by the caching renderer before the plan is built (loadImages).
    files.push({ path, data: image.bytes ?? Buffer.alloc(0) });
    inputArgs.push('-framerate', String(fps), '-i', path);
    inputs += 1;
    return `[${inputs - 1}:v]`;
  };
  // The second scale rounds down to even sizes (yuv420p needs them); scale's force_divisible_by would do it in one, but
  // only from ffmpeg 4.2 on, and the npm-shipped static build is older. On one frame the extra scale costs nothing.
  const fit =
    `scale=${W}:${H}:force_original_aspect_ratio=decrease,scale=trunc(iw/2)*2:trunc(ih/2)*2,` +
    `pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,format=yuv420p,trim=end_frame=1`;
  const hold = (frames: number): string => `loop=loop=${frames - 1}:size=1:start=0,settb=1/${fps},setpts=N`;
  const solid = (color: string): string =>
    `color=${filterOptions({ c: color, s: size, r: fps, d: 1 })},format=yuv420p,trim=end_frame=1`;

  // Text boxes are placed around the moving square's lane; the clock sits just below it.
  const square = Math.max(8, Math.round(Math.min(W, H) / 8 / 2) * 2);
  const bar = Math.max(4, Math.round(Math.min(W, H) / 80 / 2) * 2);
  const mode = spec.referenceMode ?? (job.lastFrame ? 'first-last' : 'start');
  const hasRefs = Boolean(job.firstFrame || (mode === 'first-last' && job.lastFrame));
  // Overlays spare the frames that must equal a reference image.
  let enable: string | undefined;
  if (mode === 'first-last' && hasRefs) {
    enable =
      job.firstFrame && job.lastFrame ? `between(n,1,${N - 2})` : job.firstFrame ? 'gte(n,1)' : `lte(n,${N - 2})`;
  } else if (hasRefs) {
    enable = 'gte(n,1)';
  }
  const text = env.caps.drawtext
    ? textOverlay({
        job,
        width: W,
        height: H,
        font: env.font,
        tmpDir: env.tmpDir,
        enable,
        clockY: `(h+${square})/2+${Math.round(square / 4)}`,
        bottomReserve: bar,
      })
    : { files: [], filters: [] as string[], clock: undefined };
  files.push(...text.files);

  if (!hasRefs) {
    // Nothing under the text moves: draw background and text once, then repeat that frame (far cheaper per frame).
    graph.push(`${[solid(palette.background), ...text.filters, hold(N)].join(',')}[framed0]`);
  } else if (mode === 'first-last') {
    // Frame-exact split: offset + length of the second stream = N, so first and last frames are the pure refs.
    const holdFrames = Math.round(N * HOLD_SHARE);
    const fadeFrames = N - 2 * holdFrames;
    const first = job.firstFrame ? `${imageInput(job.firstFrame, 'first')}${fit}` : solid(palette.background);
    const last = job.lastFrame ? `${imageInput(job.lastFrame, 'last')}${fit}` : solid(palette.endBackground);
    if (env.caps.xfade) {
      graph.push(`${first},${hold(holdFrames + fadeFrames)}[ra]`, `${last},${hold(N - holdFrames)}[rb]`);
      const xfade = `xfade=${filterOptions({ transition: 'fade', duration: seconds(fadeFrames / fps), offset: seconds(holdFrames / fps) })}`;
      graph.push(`[ra][rb]${[xfade, ...text.filters].join(',')}[framed0]`);
    } else {
      // Builds before ffmpeg 4.3 have no xfade: the same cross-fade as the last image fading in, by its alpha, over the
      // first one; fade counts frames, so the fade starts and ends on the same frames as xfade's.
      const fadeIn = `fade=${filterOptions({ t: 'in', s: holdFrames, n: fadeFrames, alpha: 1 })}`;
      graph.push(`${first},${hold(N)}[ra]`, `${last},${hold(N)},format=yuva420p,${fadeIn}[rb]`);
      graph.push(`[ra][rb]${['overlay', ...text.filters].join(',')}[framed0]`);
    }
  } else {
    // The start image drifts left over a looped background: frame 0 is the image exactly.
    graph.push(`${imageInput(job.firstFrame!, 'first')}${fit},${hold(N)}[still]`);
    graph.push(`${solid(palette.background)},${hold(N)}[bg]`);
    const pan = `overlay=${filterOptions({ x: `-W*${PAN_SHARE}*t/${seconds(N / fps)}`, y: 0, eval: 'frame' })}`;
    graph.push(`[bg][still]${[pan, ...text.filters].join(',')}[framed0]`);
  }

  // The moving square swings across the middle every 2 s; the bar fills to the full width on the last frame.
  const sourceOf = (w: number, h: number): string =>
    `color=${filterOptions({ c: palette.accent, s: `${w}x${h}`, r: fps, d: seconds(N / fps) })}`;
  graph.push(`${sourceOf(square, square)}[sq]`, `${sourceOf(W, bar)}[bar]`);
  graph.push(
    `[framed0][sq]overlay=${filterOptions({ x: '(W-w)*(1-cos(PI*t/2))/2', y: '(H-h)/2', eval: 'frame', enable })}[moving]`,
  );
  const barOverlay = `overlay=${filterOptions({ x: `-w+w*(n+1)/${N}`, y: 'H-h', eval: 'frame', enable })}`;
  graph.push(`[moving][bar]${[barOverlay, ...(text.clock ? [text.clock] : []), 'format=yuv420p'].join(',')}[v]`);

  const audioArgs: string[] = ['-an'];
  if (spec.audio) {
    // A tone with a beep each second: audible proof of the track, and a different pitch per output.
    graph.push(
      `sine=${filterOptions({ frequency: palette.toneHz, beep_factor: 2, sample_rate: 48000, duration: seconds(N / fps) })}[a]`,
    );
    audioArgs.splice(0, 1, '-map', '[a]', ...AUDIO_ENCODER_ARGS);
  }

  const args = [
    ...PRELUDE,
    ...inputArgs,
    // The filters are light; a filter thread pool costs more to start than it saves (measured: ~15% slower).
    '-filter_complex_threads',
    '1',
    '-filter_complex',
    graph.join(';'),
    '-map',
    '[v]',
    // No -frames:v: every source above is frame-exact, and a frame limit ends the file before the AAC tail is flushed.
    ...VIDEO_ENCODER_ARGS,
    '-g',
    String(fps * 2),
    ...audioArgs,
    ...FASTSTART,
    '-f',
    'mp4',
    env.outPath,
  ];
  return { type: 'ffmpeg', files, args };
}
