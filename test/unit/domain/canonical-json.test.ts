// The idempotency fingerprint: one text per request body, whatever order its keys came in. The text is kept in the
// store of record and in a state export (GET /_emulator/state, `idempotency`), so its form is part of the state.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/domain/canonical-json.js';

describe('canonicalJson', () => {
  it('writes keys sorted at every depth, lists in their own order, and no spaces', () => {
    const body = {
      refs: ['up_2', 'up_1'],
      prompt: 'a lantern',
      params: { size: '720p', count: '2' },
      ref_slots: { start: ['up_2'], end: [] },
      texts: null,
      max_credits: 100,
    };
    expect(canonicalJson(body)).toBe(
      '{"max_credits":100,"params":{"count":"2","size":"720p"},"prompt":"a lantern",' +
        '"ref_slots":{"end":[],"start":["up_2"]},"refs":["up_2","up_1"],"texts":null}',
    );
  });

  it('gives one body the same fingerprint whatever its key order, and bodies differing only in a list different ones', () => {
    expect(canonicalJson({ model_slug: 'm', refs: ['a', 'b'] })).toBe(
      canonicalJson({ refs: ['a', 'b'], model_slug: 'm' }),
    );
    const fingerprints = [['a', 'b'], ['b', 'a'], ['ab'], ['a'], []].map((refs) => canonicalJson({ refs }));
    expect(new Set(fingerprints).size).toBe(5);
    // A list and an object with its indexes as keys are different bodies.
    expect(canonicalJson({ refs: ['a'] })).not.toBe(canonicalJson({ refs: { 0: 'a' } }));
  });
});
