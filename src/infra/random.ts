// Seeded randomness for jitter, fault probabilities and sequential ids: one generator per emulator.
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { randomInt } from 'node:crypto';

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** The seed this generator started from, so a run can be repeated. */
  readonly seed: number;
}

export function createRandom(seed?: number): Random {
  const start = seed ?? randomInt(0, 2 ** 31 - 1);
  const rng = xoroshiro128plus(start);
  return { seed: start, next: () => uniformFloat64(rng) };
}
