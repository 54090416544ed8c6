// Chooses how an output is made from its spec: video, still image, music through ffmpeg; 3d as bytes built in process.
import type { RenderJob } from '../renderer.js';
import { buildGlb } from './glb-cube.js';
import { buildMusicPlan } from './music-plan.js';
import type { PlanEnv, RenderPlan } from './plan-types.js';
import { buildStillPlan } from './still-plan.js';
import { buildVideoPlan } from './video-plan.js';

export function buildRenderPlan(job: RenderJob, env: PlanEnv): RenderPlan {
  switch (job.spec.format) {
    case 'mp4':
      return buildVideoPlan(job, env);
    case 'png':
    case 'webp':
      return buildStillPlan(job, env);
    case 'm4a':
    case 'mp3':
      return buildMusicPlan(job, env);
    case 'glb':
      return { type: 'bytes', data: buildGlb(job) };
  }
}

/** Formats this ffmpeg build can produce; a missing encoder is reported before any render starts. */
export function missingEncoder(job: RenderJob, caps: PlanEnv['caps']): string | undefined {
  switch (job.spec.format) {
    case 'mp4':
      if (!caps.libx264) return 'libx264';
      return job.spec.audio && !caps.aac ? 'aac' : undefined;
    case 'webp':
      return caps.libwebp ? undefined : 'libwebp';
    case 'm4a':
      return caps.aac ? undefined : 'aac';
    case 'mp3':
      return caps.libmp3lame ? undefined : 'libmp3lame';
    default:
      return undefined;
  }
}
