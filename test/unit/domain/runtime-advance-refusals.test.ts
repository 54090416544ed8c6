// runtime.advance(ms) refusals (emulator.advance is this method): what it says of a value that is not milliseconds, and
// the last instant it may reach. Over a real clock and scheduler, with nothing scheduled, so only advance itself runs.
import { describe, expect, it } from 'vitest';
import type { DomainContext } from '../../../src/domain/context.js';
import { LAST_INSTANT_MS, PAST_LAST_INSTANT } from '../../../src/domain/durations.js';
import { DomainError } from '../../../src/domain/errors.js';
import { createRuntime } from '../../../src/domain/runtime.js';
import { createClock } from '../../../src/infra/clock.js';
import { createScheduler } from '../../../src/infra/scheduler.js';

const START = Date.parse('2025-06-01T08:00:00.000Z');
const HINT = "For a duration such as '10m', use control.advance('10m').";

/** A runtime whose context is a clock frozen at `startMs` and its scheduler (all advance reads), with no renders. */
function runtimeAt(startMs: number) {
  const clock = createClock({ frozenAt: startMs });
  const scheduler = createScheduler(clock);
  const lifecycle = { settle: async () => {} };
  const ctx = { clock, scheduler, lifecycle } as unknown as DomainContext;
  const runtime = createRuntime({
    accountId: 'acct_local',
    build: () => ctx,
    clearFiles: async () => {},
    afterReset: () => {},
  });
  return { runtime, now: () => clock.now() };
}

// Plain JavaScript callers can pass anything: the method's type says number.
const advanceBy = (value: unknown) => runtimeAt(START).runtime.advance(value as number);

describe('runtime.advance(ms) refuses what is not a number of milliseconds', () => {
  it('quotes a string it was given, so the caller sees it was text', async () => {
    await expect(advanceBy('10m')).rejects.toThrow(
      new TypeError(`advance(ms) takes a number of milliseconds, 0 or more; it was given '10m'. ${HINT}`),
    );
  });

  it('names a number or null it was given as it is, unquoted', async () => {
    await expect(advanceBy(-1)).rejects.toThrow(
      new TypeError(`advance(ms) takes a number of milliseconds, 0 or more; it was given -1. ${HINT}`),
    );
    await expect(advanceBy(null)).rejects.toThrow(
      new TypeError(`advance(ms) takes a number of milliseconds, 0 or more; it was given null. ${HINT}`),
    );
  });

  it('refuses values that compare as 0 or more without being numbers, and leaves the clock where it was', async () => {
    const { runtime, now } = runtimeAt(START);
    // '5' >= 0 and null >= 0 and true >= 0 all hold: only the type check stops them ('5' would be added as text).
    for (const value of ['5', null, true]) {
      await expect(runtime.advance(value as unknown as number)).rejects.toThrow(TypeError);
      expect(now()).toBe(START);
    }
  });

  it('refuses NaN and Infinity, which no clock can reach', async () => {
    await expect(advanceBy(Number.NaN)).rejects.toThrow(TypeError);
    await expect(advanceBy(Number.POSITIVE_INFINITY)).rejects.toThrow(TypeError);
  });
});

describe('runtime.advance(ms) near the last instant the service can write', () => {
  const NEAR_END = LAST_INSTANT_MS - 999;

  it('moves the clock onto the last instant exactly', async () => {
    const { runtime, now } = runtimeAt(NEAR_END);
    await runtime.advance(999);
    expect(now()).toBe(LAST_INSTANT_MS);
  });

  it('refuses one millisecond past it with invalid_duration, and moves nothing', async () => {
    const { runtime, now } = runtimeAt(NEAR_END);
    const refused = await runtime.advance(1000).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'invalid_duration', message: `This advance ${PAST_LAST_INSTANT}.` });
    expect(now()).toBe(NEAR_END);
  });
});
