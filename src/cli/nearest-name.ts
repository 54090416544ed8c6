// The nearest known name to a mistyped one: an option, a flag, a config key or an error code.
import { distance } from 'fastest-levenshtein';

const normal = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** `candidates` maps each spelling a user may have meant to what to suggest; undefined when none is close. */
export function nearest(given: string, candidates: ReadonlyMap<string, string>): string | undefined {
  const wanted = normal(given);
  let best: { suggestion: string; cost: number } | undefined;
  for (const [spelling, suggestion] of candidates) {
    const cost = distance(wanted, normal(spelling));
    if (!best || cost < best.cost) best = { suggestion, cost };
  }
  // A typo is a couple of edits, or a third of the name; anything further is a guess, and no hint beats a wrong one.
  return best && best.cost <= Math.max(2, Math.floor(wanted.length / 3)) ? best.suggestion : undefined;
}
