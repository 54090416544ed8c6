// Which option sets are priced: the defaults and each value of each group alone, or with --full every combination.
import type { ModelEntry } from '../domain/catalogue-schema.js';

/** Above this many estimates a --full run is refused: at 2 requests a second it would take over 80 minutes. */
export const MAX_FULL_ESTIMATES = 10_000;

export interface OptionSet {
  model: string;
  /** Only the groups that differ from the defaults; `{}` is the default configuration. */
  params: Record<string, string>;
}

export function optionSets(models: readonly ModelEntry[], full: boolean): OptionSet[] {
  const sets: OptionSet[] = [];
  for (const model of models) {
    sets.push({ model: model.slug, params: {} });
    if (full) {
      for (const params of combinations(model))
        if (Object.keys(params).length > 0) sets.push({ model: model.slug, params });
      continue;
    }
    for (const group of model.option_groups)
      for (const value of group.values)
        if (value !== group.default) sets.push({ model: model.slug, params: { [group.name]: value } });
  }
  if (sets.length > MAX_FULL_ESTIMATES)
    throw new RangeError(
      `--full would send ${sets.length} estimates (more than ${MAX_FULL_ESTIMATES}); run without --full, which prices each option value once`,
    );
  return sets;
}

function* combinations(model: ModelEntry): Generator<Record<string, string>> {
  let partial: Record<string, string>[] = [{}];
  for (const group of model.option_groups) {
    const next: Record<string, string>[] = [];
    for (const p of partial)
      for (const value of group.values) {
        next.push(value === group.default ? p : { ...p, [group.name]: value });
        if (next.length > MAX_FULL_ESTIMATES) break;
      }
    partial = next;
  }
  yield* partial;
}

export function describeParams(params: Record<string, string>): string {
  const entries = Object.entries(params);
  return entries.length === 0 ? 'defaults' : entries.map(([k, v]) => `${k}=${v}`).join(', ');
}
