// Scenario slow-queue: two minutes pending, then the generation runs and completes as usual.
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';
import { pollUntilFinal } from '../helpers/well-behaved-client.js';

describe('scenario slow-queue', () => {
  it('a polling client sees pending for two minutes of emulator time, then completion', async () => {
    // Polling every 5 s, the client sees pending on every poll of the first two minutes.
    const { api, control } = controlled({ scenario: 'slow-queue', clockStart: '2026-04-01T10:00:00Z' });
    const accepted = await api.submit(submission(), idem('queue'));
    const id = accepted.body.generation.id;
    const { generation, seen, polls } = await pollUntilFinal(api, control, id);
    expect(seen).toEqual(['pending', 'running', 'completed']);
    expect(polls).toBeGreaterThanOrEqual(120 / 5);
    expect(generation.outputs).toHaveLength(1);
    expect(
      new Date(generation.completed_at).getTime() - new Date('2026-04-01T10:00:00Z').getTime(),
    ).toBeGreaterThanOrEqual(120_000);
  });
});
