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
export const VIDEO_ENCODER_ARGS = ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '23', '-pix_fmt', 'yuv420p'] as const;
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

  /** Each image is an input of exactly one frame: decoded once, fitted once, then repeated by `loop`. */
  const imageInput = (image: ReferenceImage, name: string): string => {
    const path = join(env.tmpDir, `${name}.${EXT[image.format]}`);
    files.push({ path, data: image.bytes });
    inputArgs.push('-framerate', String(fps), '-i', path);
    return `[${inputArgs.filter((a) => a === '-i').length - 1}:v]`;
  };
  const fit =
    `scale=${W}:${H}:force_original_aspect_ratio=decrease:force_divisible_by=2,` +
    `pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,format=yuv420p,trim=end_frame=1`;
  const hold = (frames: number): string => `loop=loop=${frames - 1}:size=1:start=0,settb=1/${fps},setpts=N`;
  const solid = (color: string): string => `color=${filterOptions({ c: color, s: size, r: fps, d: 1 })},format=yuv420p,trim=end_frame=1`;

  let enable: string | undefined;
  const mode = spec.referenceMode ?? (job.lastFrame ? 'first-last' : 'start');
  if (mode === 'first-last' && (job.firstFrame || job.lastFrame)) {
    // Frame-exact split: offset + length of the second stream = N, so first and last frames are the pure refs.
    const holdFrames = Math.round(N * HOLD_SHARE);
    const fadeFrames = N - 2 * holdFrames;
    const first = job.firstFrame ? `${imageInput(job.firstFrame, 'first')}${fit}` : solid(palette.background);
    const last = job.lastFrame ? `${imageInput(job.lastFrame, 'last')}${fit}` : solid(palette.endBackground);
    graph.push(`${first},${hold(holdFrames + fadeFrames)}[ra]`, `${last},${hold(N - holdFrames)}[rb]`);
    graph.push(
      env.caps.xfade
        ? `[ra][rb]xfade=${filterOptions({ transition: 'fade', duration: seconds(fadeFrames / fps), offset: seconds(holdFrames / fps) })}[base]`
        : `[ra][rb]overlay=${filterOptions({ enable: `gte(n,${holdFrames + Math.floor(fadeFrames / 2)})` })}[base]`,
    );
    // Overlays spare the frames that must equal a reference.
    enable = job.firstFrame && job.lastFrame ? `between(n,1,${N - 2})` : job.firstFrame ? 'gte(n,1)' : `lte(n,${N - 2})`;
  } else if (job.firstFrame) {
    graph.push(`${imageInput(job.firstFrame, 'first')}${fit},${hold(N)}[still]`);
    graph.push(`color=${filterOptions({ c: palette.background, s: size, r: fps, d: seconds(N / fps) })},format=yuv420p[bg]`);
    graph.push(`[bg][still]overlay=${filterOptions({ x: `-W*${PAN_SHARE}*t/${seconds(N / fps)}`, y: 0, eval: 'frame' })}[base]`);
    enable = 'gte(n,1)';
  } else {
    graph.push(`color=${filterOptions({ c: palette.background, s: size, r: fps, d: seconds(N / fps) })},format=yuv420p[base]`);
  }

  // The moving square swings across the middle every 2 s; the bar fills to the full width on the last frame.
  const square = Math.max(8, Math.round(Math.min(W, H) / 8 / 2) * 2);
  const bar = Math.max(4, Math.round(Math.min(W, H) / 80 / 2) * 2);
  const sourceOf = (w: number, h: number): string =>
    `color=${filterOptions({ c: palette.accent, s: `${w}x${h}`, r: fps, d: seconds(N / fps) })}`;
  graph.push(`${sourceOf(square, square)}[sq]`, `${sourceOf(W, bar)}[bar]`);
  graph.push(`[base][sq]overlay=${filterOptions({ x: '(W-w)*(1-cos(PI*t/2))/2', y: '(H-h)/2', eval: 'frame', enable })}[moving]`);
  graph.push(`[moving][bar]overlay=${filterOptions({ x: `-w+w*(n+1)/${N}`, y: 'H-h', eval: 'frame', enable })}[framed]`);

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
    : { files: [], filters: [] };
  files.push(...text.files);
  graph.push(`[framed]${[...text.filters, 'format=yuv420p'].join(',')}[v]`);

  const audioArgs: string[] = ['-an'];
  if (spec.audio) {
    // A tone with a beep each second: audible proof of the track, and a different pitch per output.
    graph.push(`sine=${filterOptions({ frequency: palette.toneHz, beep_factor: 2, sample_rate: 48000, duration: seconds(N / fps) })}[a]`);
    audioArgs.splice(0, 1, '-map', '[a]', ...AUDIO_ENCODER_ARGS);
  }

  const args = [
    ...PRELUDE,
    ...inputArgs,
    '-filter_complex',
    graph.join(';'),
    '-map',
    '[v]',
    '-frames:v',
    String(N),
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
