// Scenario lost-response-retry: the first answer is lost after the work was done; the retry is a replay, charged once.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js';
import { CHEAP_PRICE, idem, submission } from '../helpers/controlled-emulator.js';

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

describe('scenario lost-response-retry', () => {
  it('a fetch client whose first request fails retries with the same key and gets replayed: true', async () => {
    const emulator = await startEmulator({
      scenario: 'lost-response-retry',
      seed: 1,
      timing: 'manual',
      ffmpegPath: false,
    });
    running.push(emulator);
    const { url, apiKey, control } = emulator;
    const send = () =>
      fetch(`${url}/v1/media/generations`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${apiKey}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': idem('lost'),
        },
        body: JSON.stringify(submission()),
      });

    let firstError: unknown;
    let answer: Response | undefined;
    for (let attempt = 0; attempt < 3 && !answer; attempt++) {
      try {
        answer = await send();
      } catch (error) {
        firstError ??= error;
      }
    }
    expect(firstError).toBeInstanceOf(TypeError); // fetch failed: the socket closed without an answer
    expect(answer?.status).toBe(202);
    const body = (await answer!.json()) as { replayed: boolean; generation: { id: string; charged_credits: number } };
    expect(body.replayed).toBe(true);
    expect(body.generation.charged_credits).toBe(CHEAP_PRICE);
    expect(await control.generations()).toHaveLength(1);
    expect((await control.accounts())[0].balance).toBe(1_000_000 - CHEAP_PRICE);
    expect((await control.waitFor(body.generation.id, 'completed')).status).toBe('completed');
  });
});
