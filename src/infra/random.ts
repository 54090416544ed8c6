// Seeded randomness for jitter, fault probabilities and sequential ids: one generator per emulator.
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import type { HostCrypto } from './host-crypto.js';

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** The seed this generator started from, so a run can be repeated. */
  readonly seed: number;
}

/** A seed drawn uniformly from [0, 2^31 - 1), the range `randomInt(0, 2 ** 31 - 1)` drew it from. */
function drawSeed(randomBytes: HostCrypto['randomBytes']): number {
  for (;;) {
    const [a, b, c, d] = randomBytes(4);
    const seed = ((a << 24) | (b << 16) | (c << 8) | d) >>> 1;
    if (seed < 2 ** 31 - 1) return seed;
  }
}

/** Without a seed, one is drawn from the host's generator (and reported as `seed`, so the run can be repeated). */
export function createRandom(seed: number | undefined, randomBytes: HostCrypto['randomBytes']): Random {
  const start = seed ?? drawSeed(randomBytes);
  const rng = xoroshiro128plus(start);
  return { seed: start, next: () => uniformFloat64(rng) };
}
