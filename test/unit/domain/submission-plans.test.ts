// submitGeneration in-process: a plan adjuster that leaves the plan alone, and the running time it plans for a video model that
// has no duration option. (Its spending refusals are checkSpending's: spending-checks.test.ts.)
import { describe, expect, it } from 'vitest';
import type { CatalogueFile } from '../../../src/domain/catalogue-schema.js';
import type { DomainContext } from '../../../src/domain/context.js';
import { submitGeneration } from '../../../src/domain/submission.js';
import type { EmulatorOptions } from '../../../src/emulator-options.js';
import { runtimeOf } from '../../../src/testing.js';
import { fixtureModel } from '../../helpers/catalogue.js';
import { CHEAP_MODEL } from '../../helpers/controlled-emulator.js';
import { makeEmulator } from '../../helpers/emulator.js';

const CLOCK_START = '2026-08-10T18:00:00Z';

/** A live emulator's domain context and its seeded key. */
function world(options: EmulatorOptions = {}) {
  const emulator = makeEmulator({ ffmpegPath: false, clockStart: CLOCK_START, ...options });
  const ctx = runtimeOf(emulator).context();
  return { ctx, key: ctx.accounts.authenticate(`Bearer ${emulator.apiKey}`) };
}

type Key = ReturnType<typeof world>['key'];

const submit = (ctx: DomainContext, key: Key, idempotencyKey: string, body: Record<string, unknown> = {}) => {
  const full = { model_slug: CHEAP_MODEL, prompt: 'a lighthouse at dusk', max_credits: 100, ...body };
  return submitGeneration(ctx, { key, idempotencyKey, rawBody: full, body: full });
};

describe('submitGeneration plans', () => {
  it('accepts a submission whose plan adjuster returns nothing, with no adjustment recorded', () => {
    const { ctx, key } = world();
    const bare: DomainContext = { ...ctx, planAdjuster: () => undefined };
    const result = submit(bare, key, 'idem-key-bare');
    expect(result.response.status).toBe(202);
    expect(result.adjustment).toBeUndefined();
    expect(ctx.generations.get(result.generationId)?.status).toBe('pending');
  });

  it('times a video model without a duration option as a 5-second video', () => {
    const entry = structuredClone(fixtureModel('motion-lite-v1'));
    entry.slug = 'motion-no-duration';
    entry.option_groups = entry.option_groups.filter((g) => g.name !== 'duration');
    delete entry.price.units_from;
    const catalogue: CatalogueFile = { version: 1, models: [entry] };
    const { ctx, key } = world({ catalogue, timing: 'manual' });
    const result = submit(ctx, key, 'idem-key-no-duration', { model_slug: 'motion-no-duration' });
    // The manual profile plans the realistic running time without jitter: 4 s plus 1 s per second of one video.
    expect(ctx.generations.get(result.generationId)?.plan).toMatchObject({ runningMs: 4000 + 1000 * 5 });
  });
});
