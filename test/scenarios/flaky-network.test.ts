// Scenario flaky-network: two 503s on submission, then success, charged once.
import { describe, expect, it } from 'vitest';
import { CHEAP_PRICE, controlled, idem, submission } from '../helpers/controlled-emulator.js';
import { pollUntilFinal, submitWithRetries } from '../helpers/well-behaved-client.js';

describe('scenario flaky-network', () => {
  it('a client that retries with the same Idempotency-Key gets through on the third attempt and pays once', async () => {
    const { api, control } = controlled({ scenario: 'flaky-network' });
    const answers = await submitWithRetries(api, submission(), idem('flaky'));
    expect(answers.map((a) => a.status)).toEqual([503, 503, 202]);
    expect(answers[0].headers['retry-after']).toBe('1');
    expect(answers[0].body.error.code).toBe('service_unavailable');
    expect(answers[2].body.replayed).toBe(false);
    const { generation } = await pollUntilFinal(api, control, answers[2].body.generation.id);
    expect(generation).toMatchObject({ status: 'completed', charged_credits: CHEAP_PRICE, billing_status: 'charged' });
    expect((await control.accounts())[0].balance).toBe(1_000_000 - CHEAP_PRICE);
    expect((await control.journal({ path: '/v1/media/generations' })).map((e) => e.status)).toEqual([503, 503, 202]);
    expect((await control.scenario.progress())?.complete).toBe(true);
  });
});
