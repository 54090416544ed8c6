// Scenario rate-limited: three 429s with Retry-After on any API route, nothing charged, then calls succeed.
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';
import { submitWithRetries } from '../helpers/well-behaved-client.js';

describe('scenario rate-limited', () => {
  it('the client backs off on 429 + Retry-After and gets through with one charge', async () => {
    const { api, control } = controlled({ scenario: 'rate-limited' });
    const models = await api.get('/v1/media/models');
    expect(models.status).toBe(429);
    expect(models.headers['retry-after']).toBe('2');
    expect(models.body.error).toMatchObject({ code: 'rate_limited', retry_after_seconds: 2 });
    const answers = await submitWithRetries(api, submission(), idem('limited'));
    expect(answers.map((a) => a.status)).toEqual([429, 429, 202]);
    expect(answers.every((a) => a.status !== 429 || a.headers['retry-after'] === '2')).toBe(true);
    expect((await control.ledger()).filter((e) => e.type === 'charge')).toHaveLength(1);
    expect((await api.get('/v1/media/models')).status).toBe(200);
  });
});
