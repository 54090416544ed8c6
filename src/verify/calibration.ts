// Loads a calibration file, checks it, and turns it into emulator options: statuses, codes, catalogue and prices.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EmulatorOptions } from '../emulator-options.js';
import { formatPath, parseCatalogue } from '../domain/catalogue.js';
import { loadCatalogue } from '../wiring/node/catalogue-file.js';
import type { CatalogueFile, ModelEntry } from '../domain/catalogue-schema.js';
import { type Calibration, type CalibrationFile, calibrationFileSchema } from './calibration-schema.js';

/** A calibration that cannot be used; the message names the file and the field, e.g. `errors.insufficient_credits.status`. */
export class CalibrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalibrationError';
  }
}

export interface AppliedCalibration {
  options: EmulatorOptions;
  recordedModels?: { all: unknown; byKind: Record<string, unknown> };
  /** What the emulator could not follow, for the start-up log. */
  notes: string[];
}

export function loadCalibration(source: string | CalibrationFile): Calibration {
  const label = typeof source === 'string' ? resolve(source) : 'calibration option';
  let data: unknown = source;
  if (typeof source === 'string') {
    let text: string;
    try {
      text = readFileSync(label, 'utf8');
    } catch (error) {
      throw new CalibrationError(`calibration ${label}: cannot read the file: ${(error as Error).message}`);
    }
    try {
      data = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (error) {
      throw new CalibrationError(`calibration ${label}: invalid JSON: ${(error as Error).message}`);
    }
  }
  const parsed = calibrationFileSchema.safeParse(data);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join('; ');
    throw new CalibrationError(`calibration ${label}: ${detail}`);
  }
  return parsed.data;
}

/** Explicit options win over the calibration: `errorStatuses`, `errorCodes` and `catalogue` given alongside it. */
export function applyCalibration(input: EmulatorOptions): AppliedCalibration {
  if (input.calibration === undefined) return { options: input, notes: [] };
  const label = typeof input.calibration === 'string' ? resolve(input.calibration) : 'calibration option';
  const calibration = loadCalibration(input.calibration);
  const notes: string[] = [];
  const statuses: Record<string, number> = {};
  const codes: Record<string, string> = {};
  for (const [code, seen] of Object.entries(calibration.errors)) {
    statuses[code] = seen.status;
    if (seen.code !== undefined && seen.code !== code) codes[code] = seen.code;
  }
  const base = baseModels(input, calibration, notes);
  const models = base.map((model) => withPrices(model, calibration, label));
  for (const slug of Object.keys(calibration.prices))
    if (!base.some((m) => m.slug === slug)) notes.push(`prices of '${slug}' ignored: the catalogue has no such model`);
  if (Object.keys(calibration.shapes).length > 0)
    notes.push(
      `the service's ${Object.keys(calibration.shapes).join(', ')} answers have another shape; the emulator keeps its own (docs/verify.md)`,
    );
  const catalogue: CatalogueFile = { version: 1, models };
  parseCatalogue(catalogue, `${label} (catalogue with observed prices)`);
  const recorded = calibration.catalogue;
  return {
    options: {
      ...input,
      catalogue,
      errorStatuses: { ...statuses, ...(input.errorStatuses ?? {}) },
      errorCodes: { ...codes, ...(input.errorCodes ?? {}) },
    },
    recordedModels: recorded && { all: recorded.all, byKind: { ...recorded.by_kind } },
    notes,
  };
}

/** The recorded catalogue when it reads as the emulator's own format (so new models work), else the usual one. */
function baseModels(input: EmulatorOptions, calibration: Calibration, notes: string[]): readonly ModelEntry[] {
  if (input.catalogue !== undefined)
    return typeof input.catalogue === 'string'
      ? loadCatalogue(input.catalogue).models
      : parseCatalogue(input.catalogue, 'catalogue option').models;
  if (calibration.catalogue === undefined) return loadCatalogue().models;
  const recorded = calibration.catalogue.all as { models?: unknown } | null;
  let why = 'it has no `models` list';
  if (recorded && Array.isArray(recorded.models)) {
    const models = recorded.models.map((m) => {
      if (!m || typeof m !== 'object') return m;
      const { default_price_credits: _shown, ...entry } = m as Record<string, unknown>;
      return entry;
    });
    try {
      return parseCatalogue({ version: 1, models }, 'recorded catalogue').models;
    } catch (error) {
      why = (error as Error).message;
    }
  }
  notes.push(`GET /models serves the recorded catalogue verbatim, but it cannot drive pricing (${why})`);
  return loadCatalogue().models;
}

function withPrices(model: ModelEntry, calibration: Calibration, label: string): ModelEntry {
  const observed = Object.hasOwn(calibration.prices, model.slug) ? calibration.prices[model.slug] : undefined;
  if (observed === undefined) return model;
  observed.forEach((row, r) => {
    for (const [name, value] of Object.entries(row.params)) {
      const group = model.option_groups.find((g) => g.name === name);
      const where = formatPath(['prices', model.slug, r, 'params', name]);
      if (group === undefined) throw new CalibrationError(`calibration ${label}: ${where}: no option group '${name}'`);
      if (!group.values.includes(value))
        throw new CalibrationError(`calibration ${label}: ${where}: '${value}' is not a value of '${name}'`);
    }
  });
  return { ...model, price: { ...model.price, table: [...observed, ...(model.price.table ?? [])] } };
}
