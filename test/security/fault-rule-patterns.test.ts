// Fault-rule patterns run in linear time (re2js), and a pattern RE2 cannot compile is a field-naming 422.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { client, makeEmulator } from '../helpers/emulator.js';

const CHEAP = 'still-sketch-v1';

describe('fault rule patterns', () => {
  it('matches /^(a+)+$/ against a 40-character prompt without stalling, and the request is answered', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const rule = await request(emulator.app)
      .post('/_emulator/faults')
      .send({ match: { prompt: '/^(a+)+$/' }, action: { type: 'status', status: 503 } });
    expect(rule.status).toBe(201);
    // A backtracking engine needs hours for this input; RE2 needs microseconds. The test timeout is the guard.
    const res = await client(emulator).submit(
      { model_slug: CHEAP, prompt: `${'a'.repeat(40)}!`, max_credits: 100 },
      'redos-key-1',
    );
    expect(res.status).toBe(202);
    const hit = await client(emulator).submit(
      { model_slug: CHEAP, prompt: 'a'.repeat(40), max_credits: 100 },
      'redos-key-2',
    );
    expect(hit.status).toBe(503);
  });

  it.each([
    ['prompt', '(?<=a)b'],
    ['prompt', '/(a)\\1/'],
    ['idempotency_key', '/(?=x)y/'],
  ])(
    'refuses a %s pattern RE2 cannot compile (%s) with 422 invalid_fault_rule naming the field',
    async (field, pattern) => {
      const emulator = makeEmulator({ ffmpegPath: false });
      const res = await request(emulator.app)
        .post('/_emulator/faults')
        .send({ match: { [field]: pattern }, action: { type: 'status', status: 503 } });
      expect([res.status, res.body.error.code]).toEqual([422, 'invalid_fault_rule']);
      expect(res.body.error.problems[0].field).toBe(`match.${field}`);
    },
  );
});
