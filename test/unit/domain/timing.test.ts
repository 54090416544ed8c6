// Unit tests of the timing profiles: the running time of each media kind by its size, and the seeded jitter's range.
import { describe, expect, it } from 'vitest';
import { plannedTimers } from '../../../src/domain/timing.js';

const noJitter = () => 0.5;

describe('plannedTimers', () => {
  it('manual: runs for the realistic time of each kind, scaled by duration and count', () => {
    const running = (work: Parameters<typeof plannedTimers>[1]) => plannedTimers('manual', work, noJitter).runningMs;
    expect(running({ kind: 'video', durationSeconds: 8, count: 2 })).toBe(4000 + 1000 * 8 * 2);
    expect(running({ kind: 'music', durationSeconds: 30, count: 2 })).toBe(2000 + 200 * 30 * 2);
    expect(running({ kind: 'music', count: 3 })).toBe(2000 + 200 * 10 * 3);
    expect(running({ kind: 'image', count: 3 })).toBe(2500 * 3);
    expect(running({ kind: '3d', count: 2 })).toBe(8000 * 2);
    expect(plannedTimers('manual', { kind: 'image', count: 1 }, noJitter)).toEqual({
      pendingMs: 1000,
      runningMs: 2500,
      manualOnly: true,
    });
  });

  it('realistic: jitter spreads the wait by ±30 % and the work by ±20 %, at the ends of the random range', () => {
    const work = { kind: '3d' as const, count: 1 };
    expect(plannedTimers('realistic', work, () => 0)).toEqual({ pendingMs: 1050, runningMs: 6400, manualOnly: false });
    expect(plannedTimers('realistic', work, () => 1)).toEqual({ pendingMs: 1950, runningMs: 9600, manualOnly: false });
    expect(plannedTimers('fast', work, () => 1)).toEqual({ pendingMs: 15, runningMs: 60, manualOnly: false });
  });
});
