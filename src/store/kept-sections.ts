// Where the plugins' kept sections live in the store of record: the values in one meta entry, each log in its table.
import type { KeptLog, KeptState, KeptValue } from '../wiring/kept-state.js';

/**
 * The meta entry holding every kept value, as one JSON object keyed by section name (in the sections' order). Its
 * name, like the log entries' below, is in every existing state file: renaming it would lose their values.
 */
export const VALUES_META = 'control';

/** The meta entry holding a log's last id: existing files hold one per log under this name, so do not rename it. */
export const logSeqMeta = (log: KeptLog) => `${log.name}_seq`;

export const keptValues = (kept: KeptState): KeptValue[] => kept.sections.filter((s) => s.kind === 'value');

export const keptLogs = (kept: KeptState): KeptLog[] => kept.sections.filter((s) => s.kind === 'log');

/** The kept values as the store writes them: their text is also their change mark. */
export function valuesText(values: readonly KeptValue[]): string {
  const object: Record<string, unknown> = {};
  for (const value of values) object[value.name] = value.current();
  return JSON.stringify(object);
}
