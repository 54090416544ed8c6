// Loading a calibration: observed statuses, codes, catalogue and prices applied; bad files refused naming the field.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliOptions } from '../../src/cli/options.js';
import { type CalibrationFile, createEmulatorApp, type Emulator, type EmulatorOptions } from '../../src/index.js';
import { client, MODEL_A, MODEL_B, makeEmulator } from '../helpers/emulator.js';

const dir = mkdtempSync(join(tmpdir(), 'calibration-test-'));
const base: CalibrationFile = { version: 1, observed_at: '2026-11-20T09:00:00Z' };
const prompt = 'a lake';

const unchecked: Emulator[] = [];
afterEach(() => Promise.all(unchecked.splice(0).map((e) => e.close())));

/**
 * Not contract-checked: a calibrated emulator answers with the real service's codes and shapes, which /openapi.json
 * does not document (docs/verify.md says so).
 */
function uncheckedEmulator(options: EmulatorOptions): Emulator {
  const emulator = createEmulatorApp({ seed: 1, timing: 'manual', ...options });
  unchecked.push(emulator);
  return emulator;
}

function file(data: unknown): string {
  const path = join(dir, `c-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
  return path;
}

describe('a calibrated emulator', () => {
  it('answers each probed failure class with the observed status and code', async () => {
    // A renamed code is the service's, not one /openapi.json documents (docs/verify.md says so).
    const emulator = uncheckedEmulator({
      initialBalance: 100,
      calibration: { ...base, errors: { insufficient_credits: { status: 400, code: 'balance_too_low' } } },
    });
    const res = await client(emulator).submit({ model_slug: MODEL_B, prompt, max_credits: 5000 }, 'calibrated-1');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('balance_too_low');
    expect((await client(emulator).get('/v1/media/usage')).body.wallet_balance).toBe(100);
  });

  it('renames and moves a code the emulation plane registered, like one of the core', async () => {
    const emulator = uncheckedEmulator({
      calibration: { ...base, errors: { fault_not_found: { status: 410, code: 'rule_gone' } } },
    });
    const res = await client(emulator).raw.delete('/_emulator/faults/no-such-rule');
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe('rule_gone');
    const documented = (await client(emulator).raw.get('/openapi.json')).body;
    const answers = documented.paths['/_emulator/faults/{id}'].delete.responses;
    expect(answers['410'].description).toContain('fault_not_found');
    expect(answers['404']?.description ?? '').not.toContain('fault_not_found');
  });

  it('prices an observed option set from its table and charges that price, the rest by the formula', async () => {
    const emulator = makeEmulator({
      calibration: { ...base, prices: { [MODEL_A]: [{ params: { duration: '5' }, credits: 111 }] } },
    });
    const api = client(emulator);
    const observed = { model_slug: MODEL_A, prompt, params: { duration: '5' } };
    expect((await api.post('/v1/media/estimate', observed)).body.credits).toBe(111);
    expect((await api.post('/v1/media/estimate', { model_slug: MODEL_A, prompt })).body.credits).toBe(88);
    const accepted = await api.submit({ ...observed, max_credits: 111 }, 'calibrated-price');
    expect(accepted.status).toBe(202);
    expect(accepted.body.generation.charged_credits).toBe(111);
    const models = (await api.get('/v1/media/models')).body.models;
    expect(models[0].price.table).toBeUndefined();
  });

  it('serves a recorded catalogue of another shape verbatim and keeps pricing with its own', async () => {
    // The recorded body is the service's shape, not the one /openapi.json documents.
    const lines: string[] = [];
    const recorded = { data: [{ id: 'm1', cost: 3 }], object: 'list' };
    const emulator = uncheckedEmulator({
      log: (line) => lines.push(line),
      calibration: { ...base, catalogue: { all: recorded, by_kind: { video: { data: [], object: 'list' } } } },
    });
    const api = client(emulator);
    expect((await api.get('/v1/media/models')).body).toEqual(recorded);
    expect((await api.get('/v1/media/models?kind=video')).body).toEqual({ data: [], object: 'list' });
    expect((await api.post('/v1/media/estimate', { model_slug: MODEL_A, prompt })).body.credits).toBe(88);
    expect(lines.some((l) => l.includes('cannot drive pricing'))).toBe(true);
  });

  it('loads from a file named by --calibration or MEDIA_EMULATOR_CALIBRATION, the flag winning', async () => {
    const options = cliOptions(['--calibration', 'flag.json'], { MEDIA_EMULATOR_CALIBRATION: 'env.json' });
    expect(options !== 'help' && options.calibration).toBe('flag.json');
    const fromEnv = cliOptions([], { MEDIA_EMULATOR_CALIBRATION: 'env.json' });
    expect(fromEnv !== 'help' && fromEnv.calibration).toBe('env.json');
    const path = file({ ...base, errors: { invalid_api_key: { status: 403 } } });
    const emulator = createEmulatorApp({ calibration: path, ffmpegPath: false });
    expect(emulator.options.errorStatuses.invalid_api_key).toBe(403);
    await emulator.close();
  });

  it('refuses a calibration that cannot be used, naming the file and the field', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ ...base, errors: { insufficient_credits: { status: 200 } } }, /errors\.insufficient_credits\.status/],
      [
        { ...base, prices: { [MODEL_A]: [{ params: { qualty: '720p' }, credits: 1 }] } },
        /prices\["motion-lite-v1"\]\[0\]\.params\.qualty: no option group/,
      ],
      [
        { ...base, prices: { [MODEL_A]: [{ params: { quality: '4k' }, credits: 1 }] } },
        /params\.quality: '4k' is not a value/,
      ],
      [{ ...base, version: 2 }, /version/],
      [{ ...base, observed_at: 'yesterday' }, /observed_at/],
      ['{ not json', /invalid JSON/],
    ];
    for (const [data, message] of cases) {
      const path = file(data);
      expect(() => createEmulatorApp({ calibration: path, ffmpegPath: false })).toThrow(message);
      expect(() => createEmulatorApp({ calibration: path, ffmpegPath: false })).toThrow(path);
    }
  });
});
