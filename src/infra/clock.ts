// The emulator clock: real time plus an offset, or frozen; moved forward only by advance().
export interface Clock {
  now(): number;
  /** True while time stands still between advance() calls. */
  readonly frozen: boolean;
  /** The latest reading it gives: time stops there, however far real time or a move would take it. */
  readonly latest: number;
  /** True once the reading differs from real time: frozen, advanced or set. Browser caches run on real time. */
  readonly moved: boolean;
  advanceBy(ms: number): void;
  freeze(): void;
  unfreeze(): void;
  /** Frozen clocks ignore real time; set the reading directly (import, reset). */
  set(ms: number): void;
  /** Called after every change of the reading or of frozen: the scheduler re-arms its real timer by itself. */
  onChange(listener: () => void): void;
}

export interface ClockOptions {
  /** Start frozen at this instant (ms since epoch); omit for real time. */
  frozenAt?: number;
  realNow?: () => number;
  /** The latest reading (ms since epoch); none by default. */
  latest?: number;
}

export function createClock(options: ClockOptions = {}): Clock {
  const realNow = options.realNow ?? Date.now;
  let frozen = options.frozenAt !== undefined;
  let frozenValue = options.frozenAt ?? 0;
  let offset = 0;
  const latest = options.latest ?? Number.POSITIVE_INFINITY;
  const held = (ms: number) => Math.min(ms, latest);
  const listeners: (() => void)[] = [];
  const changed = () => {
    for (const listener of listeners) listener();
  };
  return {
    get frozen() {
      return frozen;
    },
    get moved() {
      return frozen || offset !== 0;
    },
    latest,
    now: () => held(frozen ? frozenValue : realNow() + offset),
    advanceBy(ms) {
      if (frozen) frozenValue = held(frozenValue + ms);
      else offset += ms;
      changed();
    },
    freeze() {
      if (frozen) return;
      frozenValue = held(realNow() + offset);
      frozen = true;
      changed();
    },
    unfreeze() {
      if (!frozen) return;
      offset = frozenValue - realNow();
      frozen = false;
      changed();
    },
    set(ms) {
      if (frozen) frozenValue = held(ms);
      else offset = held(ms) - realNow();
      changed();
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
