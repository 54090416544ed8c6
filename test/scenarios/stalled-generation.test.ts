// Scenario stalled-generation: generations run and never finish; the client needs a deadline, the control plane can end them.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';
import { pollUntilFinal } from '../helpers/well-behaved-client.js';

describe('scenario stalled-generation', () => {
  it('a polling client with a deadline gives up while the generation is still running', async () => {
    const { api, control, emulator } = controlled({ scenario: 'stalled-generation' });
    const id = (await api.submit(submission(), idem('stall'))).body.generation.id;
    await expect(pollUntilFinal(api, control, id, 50)).rejects.toThrow('seen: pending -> running');
    const failed = await request(emulator.app).post(`/_emulator/generations/${id}/fail`).send({ code: 'timeout' });
    expect(failed.body.generation).toMatchObject({
      status: 'failed',
      error: { code: 'timeout' },
      billing_status: 'refunded',
    });
  });
});
