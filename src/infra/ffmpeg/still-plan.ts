// ffmpeg arguments for an image output: one frame of colour, a simple sketch and the request text, as PNG or WebP.
import type { RenderJob } from '../renderer.js';
import { filterOptions } from './filtergraph.js';
import { paletteFor } from './palette.js';
import { PRELUDE, type PlanEnv, type RenderPlan } from './plan-types.js';
import { textOverlay } from './text-overlay.js';

export function buildStillPlan(job: RenderJob, env: PlanEnv): RenderPlan {
  const W = job.spec.width ?? 1024;
  const H = job.spec.height ?? 1024;
  const palette = paletteFor(job.index);
  const short = Math.min(W, H);
  // A "sketch": a sun-like square and a horizon band whose place depends on the index, so outputs differ in shape too.
  const sun = Math.round(short / 5);
  const sunX = Math.round((W - sun) * (0.2 + 0.2 * (job.index % 4)));
  const shapes = [
    `drawbox=${filterOptions({ x: 0, y: Math.round(H * 0.62), w: W, h: Math.round(H * 0.08), color: palette.endBackground, t: 'fill' })}`,
    `drawbox=${filterOptions({ x: sunX, y: Math.round(H * 0.38), w: sun, h: sun, color: palette.accent, t: 'fill' })}`,
  ];
  const text = env.caps.drawtext
    ? textOverlay({ job, width: W, height: H, font: env.font, tmpDir: env.tmpDir, bottomReserve: 0 })
    : { files: [], filters: [] };
  const graph =
    `color=${filterOptions({ c: palette.background, s: `${W}x${H}`, r: 1, d: 1 })},` +
    [...shapes, ...text.filters].join(',') +
    (job.spec.format === 'webp' ? ',format=yuv420p[v]' : ',format=rgb24[v]');
  const encoder =
    job.spec.format === 'webp'
      ? ['-c:v', 'libwebp', '-quality', '80', '-f', 'webp']
      : ['-c:v', 'png', '-f', 'image2', '-update', '1'];
  const args = [...PRELUDE, '-filter_complex', graph, '-map', '[v]', '-frames:v', '1', ...encoder, env.outPath];
  return { type: 'ffmpeg', files: text.files, args };
}
