// Caps how many renders (ffmpeg processes) run at once; the rest wait in FIFO order.

export interface QueueStats {
  running: number;
  queued: number;
  /** Highest `running` seen since creation or the last resetPeak(). */
  peakRunning: number;
}

export interface RenderQueue {
  readonly maxParallel: number;
  run<T>(task: () => Promise<T>): Promise<T>;
  stats(): QueueStats;
  resetPeak(): void;
  /** Rejects every task still waiting for a slot (close); running tasks finish or are aborted by their owner. */
  rejectWaiting(error: Error): void;
}

interface Waiter {
  start: () => void;
  fail: (error: Error) => void;
}

export function createRenderQueue(maxParallel: number): RenderQueue {
  const limit = Math.max(1, Math.floor(maxParallel));
  const waiting: Waiter[] = [];
  let running = 0;
  let peakRunning = 0;

  const release = (): void => {
    running -= 1;
    const next = waiting.shift();
    next?.start();
  };

  return {
    maxParallel: limit,
    run<T>(task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = (): void => {
          running += 1;
          peakRunning = Math.max(peakRunning, running);
          // A task that throws synchronously still frees its slot.
          Promise.resolve().then(task).then(resolve, reject).finally(release);
        };
        if (running < limit) start();
        else waiting.push({ start, fail: reject });
      });
    },
    stats: () => ({ running, queued: waiting.length, peakRunning }),
    resetPeak() {
      peakRunning = running;
    },
    rejectWaiting(error) {
      for (const w of waiting.splice(0)) w.fail(error);
    },
  };
}
