// The shipped catalogue's models by slug, for unit tests of pricing and model rules.
import { loadCatalogue } from '../../src/wiring/node/catalogue-file.js';
import type { ModelEntry } from '../../src/domain/catalogue-schema.js';

const catalogue = loadCatalogue();

export function fixtureModel(slug: string): ModelEntry {
  const entry = catalogue.get(slug);
  if (entry === undefined) throw new Error(`fixture lacks ${slug}`);
  return entry;
}
