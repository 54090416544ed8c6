// Draws a delay from a fault rule's latency spec with the emulator's seeded random, so a seed repeats the delays too.
import type { LatencySpec } from './fault-schema.js';

/** Lognormal draws are capped, so one unlucky sample cannot hold a request for hours. */
const DEFAULT_LOGNORMAL_CAP_MS = 60_000;

export function sampleLatency(spec: LatencySpec, random: () => number): number {
  switch (spec.distribution) {
    case 'fixed':
      return spec.ms ?? 0;
    case 'uniform': {
      const min = spec.min_ms ?? 0;
      const max = spec.max_ms ?? min;
      return Math.round(min + (max - min) * random());
    }
    case 'lognormal': {
      // Box-Muller: two uniform draws give one standard normal.
      const u1 = Math.max(random(), Number.EPSILON);
      const u2 = random();
      const normal = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      const ms = (spec.median_ms ?? 0) * Math.exp((spec.sigma ?? 0) * normal);
      return Math.round(Math.min(ms, spec.max_ms ?? DEFAULT_LOGNORMAL_CAP_MS));
    }
  }
}
