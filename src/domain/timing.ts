// Timing profiles: how long a generation stays pending and running, scaled by its size, with seeded jitter.
import type { MediaKind } from './catalogue-schema.js';
import type { GenerationPlan } from './generation.js';

export const TIMING_PROFILES = ['realistic', 'fast', 'instant', 'manual'] as const;
export type TimingProfile = (typeof TIMING_PROFILES)[number];

export interface TimingSettings {
  profile: TimingProfile;
  byModel: Record<string, TimingProfile>;
}

export interface Workload {
  kind: MediaKind;
  durationSeconds?: number;
  count: number;
}

/** The work a request asks for: its `duration` option is a catalogue value (text), absent for a model without one. */
export function workloadOf(kind: MediaKind, params: Record<string, string>, count: number): Workload {
  const duration = params.duration;
  return { kind, count, ...(duration === undefined ? {} : { durationSeconds: Number(duration) }) };
}

/** Seconds-scale durations, loosely after peer services (Replicate, fal, Runway): a queue wait, then work. */
function realisticRunningMs(work: Workload): number {
  switch (work.kind) {
    case 'video':
      return 4000 + 1000 * (work.durationSeconds ?? 5) * work.count;
    case 'music':
      return 2000 + 200 * (work.durationSeconds ?? 10) * work.count;
    case 'image':
      return 2500 * work.count;
    case '3d':
      return 8000 * work.count;
  }
}

const jitter = (ms: number, spread: number, random: () => number) =>
  Math.round(ms * (1 - spread + 2 * spread * random()));

export function profileFor(settings: TimingSettings, modelSlug: string): TimingProfile {
  return settings.byModel[modelSlug] ?? settings.profile;
}

export function plannedTimers(
  profile: TimingProfile,
  work: Workload,
  random: () => number,
): Pick<GenerationPlan, 'pendingMs' | 'runningMs' | 'manualOnly'> {
  switch (profile) {
    case 'instant':
      return { pendingMs: 0, runningMs: 0, manualOnly: false };
    case 'fast':
      return { pendingMs: jitter(10, 0.5, random), runningMs: jitter(40, 0.5, random), manualOnly: false };
    case 'realistic':
      return {
        pendingMs: jitter(1500, 0.3, random),
        runningMs: jitter(realisticRunningMs(work), 0.2, random),
        manualOnly: false,
      };
    case 'manual':
      return { pendingMs: 1000, runningMs: realisticRunningMs(work), manualOnly: true };
  }
}
