// The emulator clock: real time plus an offset, or frozen; moved forward only by advance().
export interface Clock {
  now(): number;
  /** True while time stands still between advance() calls. */
  readonly frozen: boolean;
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
}

export function createClock(options: ClockOptions = {}): Clock {
  const realNow = options.realNow ?? Date.now;
  let frozen = options.frozenAt !== undefined;
  let frozenValue = options.frozenAt ?? 0;
  let offset = 0;
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
    now: () => (frozen ? frozenValue : realNow() + offset),
    advanceBy(ms) {
      if (frozen) frozenValue += ms;
      else offset += ms;
      changed();
    },
    freeze() {
      if (frozen) return;
      frozenValue = realNow() + offset;
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
      if (frozen) frozenValue = ms;
      else offset = ms - realNow();
      changed();
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
