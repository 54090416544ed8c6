// Scenario failure-no-refund: fails while running with internal_error, and the charge stands.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { CHEAP_PRICE, controlled, idem, submission } from '../helpers/controlled-emulator.js';
import { pollUntilFinal } from '../helpers/well-behaved-client.js';

describe('scenario failure-no-refund', () => {
  it('the client sees running, then failed / internal_error with billing_status charged', async () => {
    const { api, control, emulator } = controlled();
    expect((await request(emulator.app).post('/_emulator/scenarios').send({ name: 'failure-no-refund' })).status).toBe(
      200,
    );
    const accepted = await api.submit(submission(), idem('no-refund'));
    const id = accepted.body.generation.id;
    await control.advance('1s');
    expect((await api.get(`/v1/media/generations/${id}`)).body.generation.status).toBe('running');
    const { generation, seen } = await pollUntilFinal(api, control, id);
    expect(seen).toEqual(['running', 'failed']);
    expect(generation).toMatchObject({
      error: { code: 'internal_error' },
      charged_credits: CHEAP_PRICE,
      refunded_credits: 0,
      net_credits: CHEAP_PRICE,
      billing_status: 'charged',
    });
    expect((await api.get('/v1/media/usage')).body.wallet_balance).toBe(1_000_000 - CHEAP_PRICE);
  });
});
