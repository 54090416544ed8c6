// An independent price oracle for the model-based test: the catalogue's rule in exact BigInt fractions, rounded up once.
import catalogueFile from '../../fixtures/catalogue.json' with { type: 'json' };

type Fraction = [bigint, bigint];

function parse(text: string): Fraction {
  const [decimal, denominator = '1'] = text.split('/');
  const [whole, digits = ''] = decimal.split('.');
  return [BigInt(whole + digits), BigInt(denominator) * 10n ** BigInt(digits.length)];
}

export const MODELS = catalogueFile.models;
export type CatalogueModel = (typeof MODELS)[number];

export function referencePrice(model: CatalogueModel, params: Record<string, string>): number {
  const value = (group: string | undefined) => {
    if (!group) return '1';
    return params[group] ?? model.option_groups.find((g) => g.name === group)!.default;
  };
  const rule = model.price as unknown as {
    credits_per_unit: string;
    units_from?: string;
    count_from?: string;
    multipliers?: Record<string, Record<string, string>>;
  };
  let [n, d] = parse(rule.credits_per_unit);
  n *= BigInt(value(rule.units_from)) * BigInt(value(rule.count_from));
  for (const group of model.option_groups) {
    const factor = rule.multipliers?.[group.name]?.[value(group.name)];
    if (!factor) continue;
    const [fn, fd] = parse(factor);
    n *= fn;
    d *= fd;
  }
  return Number((n + d - 1n) / d);
}
