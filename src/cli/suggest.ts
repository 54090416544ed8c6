// Every spelling of every option, for the "did you mean" of an unknown flag, config key or in-process option.
import { OPTION_TABLE } from './option-table.js';

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
