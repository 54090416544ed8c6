// Stands in for the real service: an emulator configured to differ in prices, one extra model and two statuses.
import { loadCatalogue } from '../../src/wiring/node/catalogue-file.js';
import type { CatalogueFile, ModelEntry } from '../../src/domain/catalogue-schema.js';
import type { StartOptions } from '../../src/index.js';
import { startTestEmulator } from '../helpers/emulator.js';

export const SERVICE_KEY = 'sk-media-staging-secret-4f9a2c71';
export const SCOPED_KEY = 'sk-media-staging-scoped-8b1e0d55';
export const EXTRA_MODEL = 'pixel-burst-v3';

/** Model A at 20 credits a second instead of 21.8, and an extra image model at 2 credits (or the price given). */
export function differingCatalogue(extraCredits = 2): CatalogueFile {
  const models = loadCatalogue().models.map((m) => structuredClone(m) as ModelEntry);
  const a = models.find((m) => m.slug === 'motion-lite-v1')!;
  a.price.credits_per_unit = '20';
  const extra = structuredClone(models.find((m) => m.slug === 'still-sketch-v1')!) as ModelEntry;
  extra.slug = EXTRA_MODEL;
  extra.name = 'Pixel Burst';
  extra.price.credits_per_unit = String(extraCredits);
  return { version: 1, models: [...models, extra] };
}

/** A balance of 500 puts Model B (763) out of reach, so the insufficient-balance answer can be probed for free. */
export async function startDifferingService(options: StartOptions = {}) {
  const service = await startTestEmulator({
    apiKey: SERVICE_KEY,
    initialBalance: 500,
    seed: 7,
    timing: 'manual',
    ffmpegPath: false,
    catalogue: differingCatalogue(),
    errorStatuses: { insufficient_credits: 400, model_not_allowed_for_key: 401 },
    ...options,
  });
  await service.control.createKey({ secret: SCOPED_KEY, name: 'scoped', model_scope: 'motion-lite-v1' });
  return service;
}

/** The test drives the service's manual clock wherever verify would wait. */
export function serviceTarget(service: Awaited<ReturnType<typeof startDifferingService>>) {
  return {
    baseUrl: service.url,
    apiKey: SERVICE_KEY,
    scopedApiKey: SCOPED_KEY,
    rps: 1000,
    sleep: (ms: number) => service.emulator.advance(ms),
  };
}

export async function chargedCredits(service: Awaited<ReturnType<typeof startDifferingService>>): Promise<number> {
  const entries = await service.control.ledger();
  return entries.filter((e) => e.type === 'charge').reduce((sum, e) => sum + e.amount, 0);
}
