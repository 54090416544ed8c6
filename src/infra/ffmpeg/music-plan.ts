// ffmpeg arguments for a music output: a plucked pentatonic tone sequence of exactly the requested length.
import type { RenderJob } from '../renderer.js';
import { filterOptions, seconds } from './filtergraph.js';
import { FASTSTART, PRELUDE, type PlanEnv, type RenderPlan } from './plan-types.js';

/** Two notes a second; A3 as the root, moved up a little per output so each output sounds different. */
const NOTES_PER_SECOND = 2;
const ROOT_HZ = 220;
export const MUSIC_SAMPLE_RATE = 44100;

/**
 * The melody walks a major pentatonic scale (0, 2, 4, 7, 9 semitones: 2*d + [d >= 3]); each note decays
 * so the phase jump at a note change sounds like a new pluck rather than a click.
 */
function melodyExpression(index: number): string {
  const root = ROOT_HZ * 2 ** ((index * 5) / 12);
  const step = 3 + (index % 2);
  return (
    `st(0,mod(floor(t*${NOTES_PER_SECOND})*${step}+${index},5));` +
    `0.35*sin(2*PI*t*${root.toFixed(3)}*pow(2,(2*ld(0)+gte(ld(0),3))/12))*pow(1-mod(t*${NOTES_PER_SECOND},1),2)`
  );
}

export function buildMusicPlan(job: RenderJob, env: PlanEnv): RenderPlan {
  const duration = job.spec.durationSeconds ?? 10;
  const source = `aevalsrc=${filterOptions({ exprs: melodyExpression(job.index), s: MUSIC_SAMPLE_RATE, d: seconds(duration) })}[a]`;
  const encoder =
    job.spec.format === 'mp3'
      ? ['-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3']
      : ['-c:a', 'aac', '-b:a', '96k', ...FASTSTART, '-f', 'mp4'];
  // Title metadata lets a player show which request this was; `-map_metadata -1` keeps everything else out.
  const title = `${job.modelSlug} #${job.index + 1} ${job.identityLabel}`;
  const args = [
    ...PRELUDE,
    '-filter_complex',
    source,
    '-map',
    '[a]',
    '-map_metadata',
    '-1',
    '-metadata',
    `title=${title}`,
    '-metadata',
    `comment=${job.prompt.slice(0, 200)}`,
    ...encoder,
    env.outPath,
  ];
  return { type: 'ffmpeg', files: [], args };
}
