// Scenario insufficient-credits: ten credits in the wallet; cheap requests pass until it runs dry, then 402 and no charge.
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';

describe('scenario insufficient-credits', () => {
  it('two 4-credit images pass, the third and a video are refused with 402 insufficient_credits', async () => {
    const { api, control } = controlled({ scenario: 'insufficient-credits' });
    expect((await api.get('/v1/media/usage')).body.wallet_balance).toBe(10);
    const video = await api.submit(submission({ model_slug: 'motion-lite-v1', max_credits: 1000 }), idem('video'));
    expect(video.status).toBe(402);
    expect(video.body.error).toMatchObject({ code: 'insufficient_credits', credits: 88, wallet_balance: 10 });
    const statuses = [];
    for (const n of [1, 2, 3]) statuses.push((await api.submit(submission(), idem(n))).status);
    expect(statuses).toEqual([202, 202, 402]);
    expect((await api.get('/v1/media/usage')).body.wallet_balance).toBe(2);
    expect(await control.generations()).toHaveLength(2);
  });
});
