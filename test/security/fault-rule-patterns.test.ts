// Fault-rule patterns and routes run in linear time (re2js), and a pattern RE2 cannot compile is a field-naming 422.
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

  it('matches a route of eleven `*` against a path it does not fit without stalling, and still matches by route', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const auth = { Authorization: `Bearer ${emulator.apiKey}` };
    // As a backtracking regex (^/.*.*...x/?$) against this path: 0.8 s at eight `*`, 4 s at nine, five times more for
    // each further `*`. Eleven would take about 100 s, past the test timeout, so a return to such an engine fails here.
    const stars = await request(emulator.app)
      .post('/_emulator/faults')
      .send({ match: { route: `/${'*'.repeat(11)}x` }, action: { type: 'status', status: 503 } });
    expect(stars.status).toBe(201);
    const missed = await request(emulator.app).get('/v1/media/generations/gen_not_there').set(auth);
    expect([missed.status, missed.body.error.code]).toEqual([404, 'generation_not_found']);
    const hit = await request(emulator.app).get('/v1/media/generations/gen_not_therex').set(auth);
    expect(hit.status).toBe(503);
    await request(emulator.app)
      .post('/_emulator/faults')
      .send({ match: { route: '/v1/media/generations/:id' }, action: { type: 'status', status: 502 } });
    await request(emulator.app).delete(`/_emulator/faults/${stars.body.fault.id}`);
    const byParam = await request(emulator.app).get('/v1/media/generations/gen_not_there/').set(auth);
    expect(byParam.status).toBe(502);
    const deeper = await request(emulator.app).get('/v1/media/generations/gen_not_there/extra').set(auth);
    expect([deeper.status, deeper.body.error.code]).toEqual([404, 'route_not_found']);
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

  // Bounded before anything is compiled: a million RE2 instructions took seconds and about 75 MB of heap per rule, and
  // a 900,000-character route failed to compile outside validation (a 500).
  it.each([
    ['prompt', 'whose counts multiply to a million', '(.{1000}){1000}'],
    ['prompt', 'of 7,000 characters', '.{1000}'.repeat(1000)],
    ['route', 'of 300,000 characters', `/${'*'.repeat(300_000)}`],
    ['idempotency_key', 'of 600 characters', `/${'a'.repeat(598)}/`],
  ])('refuses a %s pattern %s with 422 invalid_fault_rule naming the field', async (field, _what, pattern) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await request(emulator.app)
      .post('/_emulator/faults')
      .send({ match: { [field]: pattern }, action: { type: 'status', status: 503 } });
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_fault_rule']);
    expect(res.body.error.problems.map((p: { field: string }) => p.field)).toEqual([`match.${field}`]);
  });
});
