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

/** A class, not an object of closures: every world (each sandbox) holds one, and its methods cost a world nothing. */
class EmulatorClock implements Clock {
  private readonly realNow: () => number;
  private isFrozen: boolean;
  private frozenValue: number;
  private offset = 0;
  readonly latest: number;
  private readonly listeners: (() => void)[] = [];

  constructor(options: ClockOptions) {
    this.realNow = options.realNow ?? Date.now;
    this.isFrozen = options.frozenAt !== undefined;
    this.frozenValue = options.frozenAt ?? 0;
    this.latest = options.latest ?? Number.POSITIVE_INFINITY;
  }

  get frozen() {
    return this.isFrozen;
  }

  get moved() {
    return this.isFrozen || this.offset !== 0;
  }

  now() {
    return this.held(this.isFrozen ? this.frozenValue : this.realNow() + this.offset);
  }

  advanceBy(ms: number) {
    if (this.isFrozen) this.frozenValue = this.held(this.frozenValue + ms);
    else this.offset += ms;
    this.changed();
  }

  freeze() {
    if (this.isFrozen) return;
    this.frozenValue = this.held(this.realNow() + this.offset);
    this.isFrozen = true;
    this.changed();
  }

  unfreeze() {
    if (!this.isFrozen) return;
    this.offset = this.frozenValue - this.realNow();
    this.isFrozen = false;
    this.changed();
  }

  set(ms: number) {
    if (this.isFrozen) this.frozenValue = this.held(ms);
    else this.offset = this.held(ms) - this.realNow();
    this.changed();
  }

  onChange(listener: () => void) {
    this.listeners.push(listener);
  }

  private held(ms: number) {
    return Math.min(ms, this.latest);
  }

  private changed() {
    for (const listener of this.listeners) listener();
  }
}

export const createClock = (options: ClockOptions = {}): Clock => new EmulatorClock(options);
