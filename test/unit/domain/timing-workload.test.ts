// workloadOf: the work a request asks for, as the timing profiles scale it; a model without a duration option is timed
// at the profile's default length, not as a clip of no length.
import { describe, expect, it } from 'vitest';
import { plannedTimers, workloadOf } from '../../../src/domain/timing.js';

const noJitter = () => 0.5;

describe('workloadOf', () => {
  it("reads the duration option's value as seconds", () => {
    expect(workloadOf('video', { duration: '8', resolution: '720p' }, 2)).toEqual({
      kind: 'video',
      durationSeconds: 8,
      count: 2,
    });
  });

  it('has no duration for a model without a duration option', () => {
    expect(workloadOf('video', { resolution: '720p' }, 1)).toEqual({ kind: 'video', count: 1 });
  });

  it('times a video without a duration option as a 5-second video, and music as 10 seconds', () => {
    // The manual profile plans the realistic running time without jitter: 4 s plus 1 s per second of video.
    expect(plannedTimers('manual', workloadOf('video', {}, 1), noJitter).runningMs).toBe(4000 + 1000 * 5);
    expect(plannedTimers('manual', workloadOf('music', {}, 1), noJitter).runningMs).toBe(2000 + 200 * 10);
  });
});
