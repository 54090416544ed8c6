// Checks read off the two catalogues: the specified models present, the set of models, the reference-input limits.
import { isDeepStrictEqual } from 'node:util';
import { parseCatalogue } from '../domain/catalogue.js';
import type { ModelEntry } from '../domain/catalogue-schema.js';
import type { CheckResult } from './report-types.js';

type Listed = Record<string, unknown> & { slug: string };

/** The models of a `GET /models` body when it holds `{ models: [{ slug, ... }] }`, else undefined. */
export function listedModels(body: unknown): Listed[] | undefined {
  const models = (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return undefined;
  return models.every((m) => m && typeof m === 'object' && typeof (m as Listed).slug === 'string')
    ? (models as Listed[])
    : undefined;
}

/** The live models in the emulator's own catalogue format (so their option sets can be priced), when they are. */
export function parseLiveModels(body: unknown): readonly ModelEntry[] | undefined {
  const listed = listedModels(body);
  if (listed === undefined) return undefined;
  try {
    const models = listed.map(({ default_price_credits: _shown, ...entry }) => entry);
    return parseCatalogue({ version: 1, models }, 'live catalogue').models;
  } catch {
    return undefined;
  }
}

export function catalogueChecksFrom(live: unknown, emulator: unknown): CheckResult[] {
  const a = listedModels(live);
  const b = listedModels(emulator) ?? [];
  if (a === undefined) {
    const reason = 'the live catalogue has no `models` list of entries with a `slug`';
    return ['specified-models', 'model-set', 'reference-inputs'].map((id) => ({
      id,
      label: 'read from GET /models',
      status: 'not probed' as const,
      reason,
    }));
  }
  const specified = b.filter((m) => m.emulator_example === false).map((m) => m.slug);
  const liveSlugs = new Set(a.map((m) => m.slug));
  const present = specified.filter((s) => liveSlugs.has(s));
  const set = (list: Listed[]) => list.map((m) => `${m.slug} (${String(m.kind)})`).sort();
  const common = b.filter((m) => liveSlugs.has(m.slug)).map((m) => m.slug);
  const limits = (list: Listed[]) =>
    Object.fromEntries(common.map((slug) => [slug, list.find((m) => m.slug === slug)?.reference_inputs ?? null]));
  return [
    verdict('specified-models', 'the specified models by slug', present, specified),
    verdict('model-set', 'every model and its kind', set(a), set(b)),
    verdict('reference-inputs', 'reference_inputs of the models both list', limits(a), limits(b)),
  ];
}

function verdict(id: string, label: string, live: unknown, emulator: unknown): CheckResult {
  return { id, label, status: isDeepStrictEqual(live, emulator) ? 'match' : 'differs', live, emulator };
}
