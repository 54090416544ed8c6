// The model catalogue: checks catalogue data (zod for shapes, then the cross-field rules zod cannot see) and indexes it.
import { catalogueFileSchema, type MediaKind, type ModelEntry, type OptionGroup } from './catalogue-schema.js';
import { maxPrice } from './pricing.js';
import { isPositiveIntegerText, parseRational } from './rational.js';

export interface Catalogue {
  /** Where the models came from (a file path, or a label given to parseCatalogue), for logs and errors. */
  readonly source: string;
  readonly models: readonly ModelEntry[];
  get(slug: string): ModelEntry | undefined;
  /** Models in file order, optionally of one kind; a fresh array each call. */
  list(kind?: MediaKind): ModelEntry[];
}

/** A catalogue that cannot be used; the message names the file and the field, e.g. `models[1].price.units_from`. */
export class CatalogueError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CatalogueError';
  }
}

interface Problem {
  path: PropertyKey[];
  message: string;
}

export function parseCatalogue(data: unknown, source: string): Catalogue {
  const parsed = catalogueFileSchema.safeParse(data);
  if (!parsed.success) {
    fail(
      source,
      parsed.error.issues.map((issue) => ({ path: [...issue.path], message: issue.message })),
    );
  }
  const models = parsed.data.models;
  const problems = crossFieldProblems(models);
  if (problems.length > 0) fail(source, problems);
  // Frozen because one catalogue may be shared by several emulators in a process; none may change it for the others.
  deepFreeze(models);
  return indexCatalogue(source, models);
}

function indexCatalogue(source: string, models: readonly ModelEntry[]): Catalogue {
  const bySlug = new Map(models.map((model) => [model.slug, model]));
  const byKind = new Map<MediaKind, ModelEntry[]>();
  for (const model of models) {
    const list = byKind.get(model.kind) ?? [];
    list.push(model);
    byKind.set(model.kind, list);
  }
  return Object.freeze({
    source,
    models,
    get: (slug: string) => bySlug.get(slug),
    list: (kind?: MediaKind) => [...(kind === undefined ? models : (byKind.get(kind) ?? []))],
  });
}

function crossFieldProblems(models: readonly ModelEntry[]): Problem[] {
  const problems: Problem[] = [];
  const firstIndex = new Map<string, number>();
  models.forEach((model, i) => {
    const seen = firstIndex.get(model.slug);
    if (seen === undefined) firstIndex.set(model.slug, i);
    else
      problems.push({ path: ['models', i, 'slug'], message: `duplicate slug '${model.slug}' (also models[${seen}])` });
    for (const p of modelProblems(model)) problems.push({ path: ['models', i, ...p.path], message: p.message });
  });
  return problems;
}

function modelProblems(model: ModelEntry): Problem[] {
  const problems: Problem[] = [];
  const add = (path: PropertyKey[], message: string) => problems.push({ path, message });
  const groups = new Map<string, { group: OptionGroup; index: number }>();

  model.option_groups.forEach((group, g) => {
    if (groups.has(group.name)) add(['option_groups', g, 'name'], `duplicate option group '${group.name}'`);
    else groups.set(group.name, { group, index: g });
    group.values.forEach((value, k) => {
      if (group.values.indexOf(value) !== k) add(['option_groups', g, 'values', k], `duplicate value '${value}'`);
    });
  });

  const price = model.price;
  checkRational(add, ['price', 'credits_per_unit'], price.credits_per_unit);
  for (const key of ['units_from', 'count_from'] as const) {
    const name = price[key];
    if (name === undefined) continue;
    const entry = groups.get(name);
    if (entry === undefined) {
      add(['price', key], `no option group '${name}'`);
      continue;
    }
    entry.group.values.forEach((value, k) => {
      if (!isPositiveIntegerText(value)) {
        add(
          ['option_groups', entry.index, 'values', k],
          `must be a positive integer, because price.${key} names this group`,
        );
      }
    });
  }
  for (const [name, byValue] of Object.entries(price.multipliers)) {
    const entry = groups.get(name);
    if (entry === undefined) {
      add(['price', 'multipliers', name], `no option group '${name}'`);
      continue;
    }
    for (const [value, factor] of Object.entries(byValue)) {
      const path = ['price', 'multipliers', name, value];
      if (!entry.group.values.includes(value)) add(path, `'${value}' is not a value of option group '${name}'`);
      checkRational(add, path, factor);
    }
  }

  (price.table ?? []).forEach((row, r) => {
    for (const [name, value] of Object.entries(row.params)) {
      const entry = groups.get(name);
      const path = ['price', 'table', r, 'params', name];
      if (entry === undefined) add(path, `no option group '${name}'`);
      else if (!entry.group.values.includes(value)) add(path, `'${value}' is not a value of option group '${name}'`);
    }
  });

  const refs = model.reference_inputs;
  if (refs !== null) {
    if (refs.slots.length > refs.max_files) {
      add(['reference_inputs', 'slots'], `${refs.slots.length} slots but max_files is ${refs.max_files}`);
    }
    refs.slots.forEach((slot, s) => {
      const earlier = refs.slots.slice(0, s);
      if (earlier.some((o) => o.name === slot.name))
        add(['reference_inputs', 'slots', s, 'name'], `duplicate slot '${slot.name}'`);
      if (earlier.some((o) => o.role === slot.role))
        add(['reference_inputs', 'slots', s, 'role'], `duplicate role '${slot.role}'`);
    });
    for (const side of ['width', 'height'] as const) {
      const min = refs[`min_${side}`];
      const max = refs[`max_${side}`];
      if (min !== undefined && max !== undefined && min > max)
        add(['reference_inputs', `min_${side}`], `must not exceed max_${side}`);
    }
  }

  // Only meaningful once the price rule is consistent; a price that does not fit a JSON number is unusable.
  if (problems.length === 0) {
    const highest = maxPrice(model);
    if (highest > BigInt(Number.MAX_SAFE_INTEGER))
      add(['price'], `highest price ${highest} exceeds ${Number.MAX_SAFE_INTEGER}`);
  }
  return problems;
}

function checkRational(add: (path: PropertyKey[], message: string) => void, path: PropertyKey[], text: string): void {
  try {
    parseRational(text);
  } catch (err) {
    add(path, messageOf(err));
  }
}

function fail(source: string, problems: Problem[]): never {
  const detail = problems.map((p) => `${formatPath(p.path)}: ${p.message}`).join('; ');
  throw new CatalogueError(`catalogue ${source}: ${detail}`);
}

/** `models[1].price.multipliers.quality["720p"]`: the path as one would write it in JavaScript. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, i) => {
      if (typeof key === 'number') return `[${key}]`;
      const text = String(key);
      if (/^[A-Za-z_$][\w$]*$/.test(text)) return i === 0 ? text : `.${text}`;
      return `[${JSON.stringify(text)}]`;
    })
    .join('');
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
