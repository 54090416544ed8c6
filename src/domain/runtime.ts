// The running service state as one handle: the current context (swapped by reset and restore), advance and settle.
import type { DomainContext } from './context.js';
import { LAST_INSTANT_MS, PAST_LAST_INSTANT } from './durations.js';
import { DomainError } from './errors.js';

/** What the emulation plane is given instead of the whole emulator. */
export interface Runtime {
  /** The current domain state; a new object after reset() or restore(). */
  context(): DomainContext;
  /** The seeded account every entry point creates. */
  readonly accountId: string;
  /** Moves the emulator clock forward, running due transitions in order, then waits for the renders they started. */
  advance(ms: number): Promise<void>;
  /** Waits for every render in flight. */
  settle(): Promise<void>;
  /** Everything back to the seeded state: keys, balances, generations, idempotency, files. */
  reset(): Promise<void>;
  /**
   * Swaps in a blank context (no seeded account, key or balance) filled by `fill`. Files are kept. `origin` says whose
   * state it is: an `import` is a new state (its secrets are new), the `store` of record's is the same state reloaded.
   */
  restore(fill: (ctx: DomainContext) => void, origin?: RestoreOrigin): Promise<void>;
}

export type RestoreOrigin = 'import' | 'store';

export interface RuntimeParts {
  accountId: string;
  /** A new context; `seeded: false` has no seeded account, key or balance. */
  build(seeded: boolean): DomainContext;
  /** Drops stored output files (reset). */
  clearFiles(): Promise<void>;
  /** Runs after every reset, once the new context is in place (the emulation plane clears its own state here). */
  afterReset(): void;
  /** Runs after a successful restore, once the new context is in place. */
  afterRestore?(origin: RestoreOrigin): void;
}

/** The runtime plus stop(), which only the composition root calls (close). */
export interface OwnedRuntime extends Runtime {
  stop(): Promise<void>;
}

async function retire(ctx: DomainContext) {
  ctx.scheduler.clear();
  ctx.lifecycle.clear();
  await ctx.lifecycle.settle();
}

export function createRuntime(parts: RuntimeParts): OwnedRuntime {
  let context = parts.build(true);
  return {
    accountId: parts.accountId,
    context: () => context,
    async advance(ms) {
      // Step from one due time to the next and let the renders each step starts finish before time moves on,
      // so completed_at is the planned instant however a test splits its advances.
      // The in-process handle's callers may be plain JavaScript: '10m' would make the target NaN and move nothing.
      if (typeof ms !== 'number' || !(ms >= 0) || ms === Number.POSITIVE_INFINITY)
        throw new TypeError(
          `advance(ms) takes a number of milliseconds, 0 or more; it was given ${typeof ms === 'string' ? `'${ms}'` : String(ms)}. For a duration such as '10m', use control.advance('10m').`,
        );
      const ctx = context;
      const target = ctx.clock.now() + ms;
      if (target > LAST_INSTANT_MS) throw new DomainError('invalid_duration', `This advance ${PAST_LAST_INSTANT}.`);
      for (
        let next = ctx.scheduler.nextDueAt();
        next !== undefined && next <= target;
        next = ctx.scheduler.nextDueAt()
      ) {
        ctx.scheduler.advance(Math.max(0, next - ctx.clock.now()));
        await ctx.lifecycle.settle();
      }
      ctx.scheduler.advance(Math.max(0, target - ctx.clock.now()));
      await ctx.lifecycle.settle();
    },
    settle: () => context.lifecycle.settle(),
    async reset() {
      await retire(context);
      await parts.clearFiles();
      context = parts.build(true);
      parts.afterReset();
    },
    async restore(fill, origin = 'import') {
      // Fill first: a snapshot that fails half-way leaves the running state untouched.
      const next = parts.build(false);
      try {
        fill(next);
      } catch (error) {
        next.scheduler.clear();
        next.lifecycle.clear();
        throw error;
      }
      // The swap is synchronous, so the caller's next step already sees the new state; the old one winds down after.
      const old = context;
      old.scheduler.clear();
      old.lifecycle.clear();
      context = next;
      parts.afterRestore?.(origin);
      await old.lifecycle.settle();
    },
    stop: () => retire(context),
  };
}
