// Scenario daily-ceiling: a key capped at 10 credits per UTC day; 429 with Retry-After until midnight, then it may spend again.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { client } from '../helpers/emulator.js';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';

describe('scenario daily-ceiling', () => {
  it('the capped key is refused after 10 credits today, the seeded key is not, and tomorrow it works again', async () => {
    const { emulator, control, api } = controlled({ clockStart: '2026-08-10T18:00:00Z' });
    await request(emulator.app).post('/_emulator/scenarios').send({ name: 'daily-ceiling' });
    const capped = client(emulator, 'sk-media-daily-ceiling-key');
    const statuses = [];
    for (const n of [1, 2, 3]) statuses.push(await capped.submit(submission(), idem(`cap-${n}`)));
    expect(statuses.map((r) => r.status)).toEqual([202, 202, 429]);
    const refused = statuses[2];
    expect(refused.body.error).toMatchObject({
      code: 'daily_credit_limit_exceeded',
      daily_credit_limit: 10,
      used_today: 8,
      retry_after_seconds: 6 * 3600,
    });
    expect(refused.headers['retry-after']).toBe(String(6 * 3600));
    expect((await api.submit(submission(), idem('seeded'))).status).toBe(202);
    await control.advance('6h');
    expect((await capped.submit(submission(), idem('cap-4'))).status).toBe(202);
  });
});
