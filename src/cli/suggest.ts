// The nearest known name to a mistyped one, for the "did you mean" of an unknown flag or config key.
import { distance } from 'fastest-levenshtein';
import { OPTION_TABLE } from './option-table.js';

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

/** Every name of every option (its key, flag and variables), each pointing at the form `suggest` gives. */
export function spellings(suggest: (entry: (typeof OPTION_TABLE)[number]) => string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const entry of OPTION_TABLE) {
    const suggestion = suggest(entry);
    if (!suggestion) continue;
    const names = [
      entry.key,
      entry.flag?.name,
      ...(entry.env ?? []).map((e) => e.name.replace(/^MEDIA_EMULATOR_/, '')),
    ];
    for (const name of names) if (name && !map.has(name)) map.set(name, suggestion);
  }
  return map;
}
