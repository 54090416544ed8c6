// Unit tests of the render slots: a bound on renders at once, a FIFO backlog, skipped jobs, settle and clear.
import { describe, expect, it } from 'vitest';
import { RenderSlots } from '../../../src/domain/render-slots.js';

interface Job {
  id: string;
  wanted: boolean;
}

function harness(slots: number) {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  let running = 0;
  let most = 0;
  const renders = new RenderSlots<Job>({
    slots,
    run: (job) => {
      started.push(job.id);
      running += 1;
      most = Math.max(most, running);
      return new Promise<void>((resolve) =>
        finish.set(job.id, () => {
          running -= 1;
          resolve();
        }),
      );
    },
    stillWanted: (job) => job.wanted,
  });
  const release = async (id: string) => {
    finish.get(id)?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { renders, started, release, most: () => most };
}

describe('RenderSlots', () => {
  it('runs at most `slots` renders at once and starts the waiting ones in order as slots free up', async () => {
    const { renders, started, release, most } = harness(2);
    for (const id of ['a', 'b', 'c', 'd']) renders.request({ id, wanted: true });
    expect(started).toEqual(['a', 'b']);
    expect(renders.inFlight()).toBe(4);
    await release('b');
    expect(started).toEqual(['a', 'b', 'c']);
    await release('a');
    await release('c');
    await release('d');
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(most()).toBe(2);
    expect(renders.inFlight()).toBe(0);
  });

  it('skips a waiting job that is no longer wanted, and gives the render already running to a second start', async () => {
    const { renders, started, release } = harness(1);
    const first = renders.start({ id: 'a', wanted: true });
    expect(renders.start({ id: 'a', wanted: true })).toBe(first);
    renders.request({ id: 'b', wanted: false });
    renders.request({ id: 'c', wanted: true });
    await release('a');
    expect(started).toEqual(['a', 'c']);
  });

  it('settles once the backlog has run too, and starts nothing waiting after clear', async () => {
    const { renders, started, release } = harness(1);
    renders.request({ id: 'a', wanted: true });
    renders.request({ id: 'b', wanted: true });
    let settled = false;
    const settling = renders.settle().then(() => {
      settled = true;
    });
    await release('a');
    expect(settled).toBe(false);
    await release('b');
    await settling;
    expect(settled).toBe(true);
    renders.request({ id: 'c', wanted: true });
    renders.request({ id: 'd', wanted: true });
    renders.clear();
    await release('c');
    expect(started).toEqual(['a', 'b', 'c']);
    expect(renders.inFlight()).toBe(0);
  });

  it('starts no job requested after clear, even when the render still running frees its slot', async () => {
    const { renders, started, release } = harness(1);
    renders.request({ id: 'a', wanted: true });
    renders.clear();
    // clear() is shutdown's and a reset's: a job that comes to wait after it is dropped with the rest, never started.
    renders.request({ id: 'b', wanted: true });
    await release('a');
    await renders.settle();
    expect(started).toEqual(['a']);
  });
});
