// A state import is checked against the ledger's invariants before it is applied; the emulator's own export passes.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { client, makeEmulator } from '../helpers/emulator.js';

async function exported(emulator: ReturnType<typeof makeEmulator>) {
  const api = client(emulator);
  await api.submit({ model_slug: 'still-sketch-v1', prompt: 'one', max_credits: 100 }, 'state-key-1');
  return (await request(emulator.app).get('/_emulator/state')).body;
}

describe('state import checks its invariants', () => {
  it.each([
    [
      'a balance that differs from the ledger',
      (s: any) => (s.domain.balances.acct_local += 5),
      'domain.balances.acct_local',
    ],
    [
      'a charge that takes the balance below zero',
      (s: any) => (s.domain.ledger.find((e: any) => e.type === 'charge').amount = 10_000_000),
      'domain.ledger[1].amount',
    ],
    ['a generation without its charge', (s: any) => s.domain.ledger.splice(1, 1), 'domain.generations[0]'],
    [
      'a refund larger than the charge',
      (s: any) => s.domain.ledger.push({ ...s.domain.ledger[1], type: 'refund', amount: 1_000, seq: 3, id: 'led_x' }),
      'domain.ledger[2].amount',
    ],
    [
      'a ledger entry of an unknown account',
      (s: any) => (s.domain.ledger[0].accountId = 'acct_ghost'),
      'domain.ledger[0].accountId',
    ],
  ])('refuses %s with 422 invalid_state naming the first bad field', async (_what, spoil, field) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    spoil(state);
    const res = await request(emulator.app).put('/_emulator/state').send(state);
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_state']);
    expect(res.body.error.message).toContain(`${field}:`);
  });

  it('accepts its own export', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    expect((await request(emulator.app).put('/_emulator/state').send(state)).status).toBe(200);
  });
});
