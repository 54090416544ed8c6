// Prices a request from the catalogue's price rule: ceil(credits_per_unit x units x count x multipliers), exactly.
import type { ModelEntry, PriceRule } from './catalogue-schema.js';
import {
  ceil,
  compare,
  multiply,
  parsePositiveInteger,
  parseRational,
  product,
  rational,
  type Rational,
} from './rational.js';

export interface PriceQuote {
  /** What is charged: the exact price rounded up once, at the end. */
  credits: number;
  unit: PriceRule['unit'];
  units: number;
  count: number;
  /** The catalogue's own text ("21.8", "763/3"), so clients see the exact figure, not a float. */
  credits_per_unit: string;
  /** Factors that applied to this request, by group, e.g. { quality: "9/4" }; groups at factor 1 are absent. */
  multipliers: Record<string, string>;
  /** Every option group of the model, in catalogue order, with defaults filled in. */
  params: Record<string, string>;
}

/** Every group in catalogue order, defaults filled in; keys the model lacks are dropped (model rules report them). */
export function resolveParams(model: ModelEntry, params: Record<string, string> = {}): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const group of model.option_groups) {
    resolved[group.name] = Object.hasOwn(params, group.name) ? params[group.name] : group.default;
  }
  return resolved;
}

/** Params are assumed valid for the model (checkModelRules ran first); a bad units or count value throws RangeError. */
export function quote(model: ModelEntry, params?: Record<string, string>): PriceQuote {
  const rule = model.price;
  const resolved = resolveParams(model, params);
  const units = rule.units_from === undefined ? 1n : parsePositiveInteger(resolved[rule.units_from] ?? '');
  const count = rule.count_from === undefined ? 1n : parsePositiveInteger(resolved[rule.count_from] ?? '');

  const applied: Record<string, string> = {};
  const factors: Rational[] = [parseRational(rule.credits_per_unit), rational(units), rational(count)];
  for (const group of model.option_groups) {
    const factor = multiplierFor(rule, group.name, resolved[group.name]);
    if (factor === undefined) continue;
    applied[group.name] = factor;
    factors.push(parseRational(factor));
  }

  return {
    credits: tablePrice(model, resolved) ?? toSafeNumber(ceil(product(factors)), model.slug),
    unit: rule.unit,
    units: Number(units),
    count: Number(count),
    credits_per_unit: rule.credits_per_unit,
    multipliers: applied,
    params: resolved,
  };
}

export function defaultPrice(model: ModelEntry): number {
  return quote(model).credits;
}

/**
 * The highest price any combination of options can reach. Groups are independent and every factor is
 * non-negative, so the product of each group's largest factor is that maximum; the catalogue loader uses it
 * to refuse a price table whose figures would not fit in a JSON-safe integer.
 */
export function maxPrice(model: ModelEntry): bigint {
  const rule = model.price;
  const factors: Rational[] = [parseRational(rule.credits_per_unit)];
  for (const group of model.option_groups) {
    let largest: Rational | undefined;
    for (const value of group.values) {
      let factor = rational(1n);
      if (group.name === rule.units_from) factor = multiply(factor, rational(parsePositiveInteger(value)));
      if (group.name === rule.count_from) factor = multiply(factor, rational(parsePositiveInteger(value)));
      const multiplier = multiplierFor(rule, group.name, value);
      if (multiplier !== undefined) factor = multiply(factor, parseRational(multiplier));
      if (largest === undefined || compare(factor, largest) > 0) largest = factor;
    }
    if (largest !== undefined) factors.push(largest);
  }
  return ceil(product(factors));
}

/** A table row matches when each of its params equals the resolved value; groups it leaves out are at their default. */
function tablePrice(model: ModelEntry, resolved: Record<string, string>): number | undefined {
  const table = model.price.table;
  if (table === undefined) return undefined;
  const row = table.find((r) =>
    model.option_groups.every(
      (g) => (Object.hasOwn(r.params, g.name) ? r.params[g.name] : g.default) === resolved[g.name],
    ),
  );
  return row?.credits;
}

/** Own properties only: a value such as "constructor" must not find Object.prototype members. */
function multiplierFor(rule: PriceRule, group: string, value: string | undefined): string | undefined {
  if (value === undefined || !Object.hasOwn(rule.multipliers, group)) return undefined;
  const byValue = rule.multipliers[group];
  return Object.hasOwn(byValue, value) ? byValue[value] : undefined;
}

function toSafeNumber(credits: bigint, slug: string): number {
  if (credits > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`price of model '${slug}' (${credits}) exceeds the largest safe integer`);
  }
  return Number(credits);
}
