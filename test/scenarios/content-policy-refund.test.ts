// Scenario content-policy-refund: accepted and charged, then failed with content_policy while pending and refunded in full.
import { describe, expect, it } from 'vitest';
import { CHEAP_PRICE, controlled, idem, submission } from '../helpers/controlled-emulator.js';
import { pollUntilFinal } from '../helpers/well-behaved-client.js';

describe('scenario content-policy-refund', () => {
  it('the client sees failed / content_policy / refunded, and the wallet is whole again', async () => {
    const { api, control } = controlled();
    await control.scenario.load('content-policy-refund');
    const accepted = await api.submit(submission(), idem('policy'));
    expect(accepted.status).toBe(202);
    expect(accepted.body.generation).toMatchObject({
      status: 'pending',
      billing_status: 'charged',
      charged_credits: CHEAP_PRICE,
    });
    const { generation, seen } = await pollUntilFinal(api, control, accepted.body.generation.id);
    expect(seen).toEqual(['pending', 'failed']);
    expect(generation).toMatchObject({
      status: 'failed',
      error: { code: 'content_policy' },
      refunded_credits: CHEAP_PRICE,
      net_credits: 0,
      billing_status: 'refunded',
      outputs: [],
    });
    const usage = (await api.get('/v1/media/usage')).body;
    expect(usage.wallet_balance).toBe(1_000_000);
    expect(usage.today).toMatchObject({ charged_credits: CHEAP_PRICE, refunded_credits: CHEAP_PRICE, net_credits: 0 });
  });
});
