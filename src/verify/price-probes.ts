// Prices every probed option set on the service (estimates are free), then the same sets on the emulator.
import { isDeepStrictEqual } from 'node:util';
import type { ModelEntry } from '../domain/catalogue-schema.js';
import { summarise } from './compare.js';
import type { ProbeAnswer, Send } from './http-probe.js';
import { type OptionSet, optionSets } from './option-sets.js';
import type { PriceRow } from './report-types.js';

export interface Priced extends OptionSet {
  credits: number;
}

export interface PriceProbes {
  /** The wallet balance the service reported with its first estimate. */
  balance?: number;
  priceOf(model: string, params: Record<string, string>): number | undefined;
  /** The cheapest probed set above the balance: a submission of it is refused without charge. */
  cheapestAbove(balance: number): Priced | undefined;
  cheapestWithin(credits: number): Priced | undefined;
  compareWith(reference: Send): Promise<PriceRow[]>;
}

const estimate = (set: OptionSet) => ({
  method: 'POST' as const,
  path: '/v1/media/estimate',
  json: { model_slug: set.model, prompt: 'verify probe: price', params: set.params },
});

export async function priceProbes(
  live: Send,
  models: readonly ModelEntry[],
  full: boolean,
  log: (line: string) => void,
): Promise<PriceProbes> {
  const sets = optionSets(models, full);
  const answers: ProbeAnswer[] = [];
  for (const [i, set] of sets.entries()) {
    answers.push(await live(estimate(set)));
    if ((i + 1) % 50 === 0) log(`  ${i + 1} of ${sets.length} prices`);
  }
  const priced: Priced[] = [];
  let balance: number | undefined;
  sets.forEach((set, i) => {
    const body = (answers[i].body ?? {}) as { credits?: unknown; wallet_balance?: unknown };
    if (answers[i].status !== 200 || !Number.isSafeInteger(body.credits)) return;
    priced.push({ ...set, credits: body.credits as number });
    if (balance === undefined && Number.isSafeInteger(body.wallet_balance)) balance = body.wallet_balance as number;
  });
  const byCredits = [...priced].sort((a, b) => a.credits - b.credits);
  return {
    balance,
    priceOf: (model, params) => priced.find((p) => p.model === model && isDeepStrictEqual(p.params, params))?.credits,
    cheapestAbove: (limit) => byCredits.find((p) => p.credits > limit),
    cheapestWithin: (limit) => (byCredits[0] && byCredits[0].credits <= limit ? byCredits[0] : undefined),
    async compareWith(reference) {
      const rows: PriceRow[] = [];
      for (const [i, set] of sets.entries()) {
        const a = answers[i];
        const b = await reference(estimate(set));
        const [x, y] = [summarise(a, 'price'), summarise(b, 'price')];
        rows.push({ ...set, status: isDeepStrictEqual(x, y) ? 'match' : 'differs', live: x, emulator: y });
      }
      return rows;
    },
  };
}
