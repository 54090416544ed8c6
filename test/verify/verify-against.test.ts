// verifyAgainst against in-process emulators on loopback: self-check, a differing service, calibration, budget, secrets.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCalibration, toMarkdown, verifyAgainst, type VerifyReport } from '../../src/index.js';
import { startTestEmulator } from '../helpers/emulator.js';
import {
  chargedCredits,
  differingCatalogue,
  EXTRA_MODEL,
  SCOPED_KEY,
  SERVICE_KEY,
  serviceTarget,
  startDifferingService,
} from './differing-service.js';

const dir = mkdtempSync(join(tmpdir(), 'verify-test-'));
const differingRows = (r: VerifyReport) => r.rows.filter((row) => row.status === 'differs').map((row) => row.id);
const differingPrices = (r: VerifyReport) =>
  r.prices.filter((p) => p.status === 'differs').map((p) => `${p.model} ${JSON.stringify(p.params)}`);

describe('verifyAgainst', () => {
  // The differing service's report, reused by the calibration test when the tests run in order.
  let first: VerifyReport | undefined;

  it('finds nothing to report when the emulator is verified against itself, spend and scope included', async () => {
    const self = await startTestEmulator({ seed: 3, timing: 'manual', ffmpegPath: false, initialBalance: 600 });
    await self.control.createKey({ secret: 'sk-media-self-scoped-key', model_scope: 'keyframe-pro-v2' });
    const report = await verifyAgainst({
      baseUrl: `${self.url}/v1/media`,
      apiKey: self.apiKey,
      scopedApiKey: 'sk-media-self-scoped-key',
      allowSpend: 50,
      rps: 1000,
      sleep: (ms) => self.emulator.advance(ms),
    });
    expect(differingRows(report)).toEqual([]);
    expect(report.clean).toBe(true);
    const byId = Object.fromEntries(report.rows.map((r) => [r.id, r.status]));
    for (const id of [
      'out-of-scope-key',
      'insufficient-balance',
      'reused-key',
      'replay',
      'state-moves',
      'url-lifetime',
    ])
      expect(byId[id], id).toBe('match');
    expect(report.prices.length).toBeGreaterThan(50);
    expect(report.prices.every((p) => p.status === 'match')).toBe(true);
  });

  it('lists exactly the differences of a service with other prices, an extra model and two other statuses', async () => {
    const service = await startDifferingService();
    const report = await verifyAgainst(serviceTarget(service));
    first = report;
    expect(differingRows(report).sort()).toEqual(
      ['catalogue-shape', 'insufficient-balance', 'other-models', 'out-of-scope-key'].sort(),
    );
    const checks = report.rows.flatMap((r) => r.checks);
    expect(checks.find((c) => c.id === 'insufficient')).toMatchObject({
      live: { status: 400, code: 'insufficient_credits' },
      emulator: { status: 402, code: 'insufficient_credits' },
    });
    expect(checks.find((c) => c.id === 'out-of-scope')).toMatchObject({
      live: { status: 401, code: 'model_not_allowed_for_key' },
      emulator: { status: 403, code: 'model_not_allowed_for_key' },
    });
    // Every Model A price differs (20 credits a second, not 21.8) except where both round to the same figure; none of B's.
    const prices = differingPrices(report);
    expect(prices.some((p) => p.startsWith('keyframe-pro-v2'))).toBe(false);
    expect(prices).toContain('motion-lite-v1 {}');
    expect(prices.filter((p) => p.startsWith(EXTRA_MODEL)).length).toBe(
      report.prices.filter((p) => p.model === EXTRA_MODEL).length,
    );
    expect(prices.every((p) => p.startsWith('motion-lite-v1') || p.startsWith(EXTRA_MODEL))).toBe(true);
    expect(report.clean).toBe(false);
    expect(toMarkdown(report)).toContain('| **differs** |');
  });

  it('reports clean once the emulator loads the calibration written from that report', async () => {
    const service = await startDifferingService();
    const report = first ?? (await verifyAgainst(serviceTarget(service)));
    const file = join(dir, 'calibration.json');
    writeFileSync(file, JSON.stringify(toCalibration(report)));
    const again = await verifyAgainst({ ...serviceTarget(service), calibration: file, allowSpend: 20 });
    expect(differingRows(again)).toEqual([]);
    expect(again.prices.filter((p) => p.status !== 'match')).toEqual([]);
    expect(again.clean).toBe(true);
    // Run against the calibrated emulator, it writes the same observations again (a weekly job's fixed point).
    const [before, after] = [toCalibration(report), toCalibration(again)];
    expect(after.catalogue).toEqual(before.catalogue);
    expect(after.prices).toEqual(before.prices);
    expect(after.errors).toMatchObject(before.errors ?? {});
    expect(before.errors).toMatchObject({
      insufficient_credits: { status: 400 },
      model_not_allowed_for_key: { status: 401 },
    });
  });

  it('never charges more than the spend budget, by the service ledger', async () => {
    // The cheapest generation costs 1 to 3 credits; budgets around it exercise every reservation step.
    const cases = fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 8 }));
    await fc.assert(
      fc.asyncProperty(cases, async ([price, budget]) => {
        const service = await startDifferingService({ catalogue: differingCatalogue(price) });
        const report = await verifyAgainst({ ...serviceTarget(service), allowSpend: budget });
        const charged = await chargedCredits(service);
        expect(charged).toBeLessThanOrEqual(budget);
        expect(report.spent).toBeLessThanOrEqual(budget);
        // One generation when the budget covers it, and never a second: the replay must not charge again.
        expect(charged).toBe(budget >= price ? price : 0);
        await service.close();
      }),
      { numRuns: 8, seed: 15, examples: [[[1, 1]], [[1, 2]], [[2, 3]]] },
    );
  });

  it('keeps both keys out of the report and the calibration', async () => {
    const service = await startDifferingService();
    const report = await verifyAgainst({ ...serviceTarget(service), allowSpend: 10 });
    const outputs = [JSON.stringify(report), toMarkdown(report), JSON.stringify(toCalibration(report))];
    for (const text of outputs) {
      expect(text).not.toContain(SERVICE_KEY);
      expect(text).not.toContain(SCOPED_KEY);
    }
  });
});
