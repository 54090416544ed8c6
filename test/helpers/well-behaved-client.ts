// A well-behaved client, as scenario tests run it: retries with the same Idempotency-Key, polls every poll_after_seconds of emulator time.
import type { Response } from 'supertest';
import type { Control } from '../../src/index.js';
import type { client } from './emulator.js';

type Api = ReturnType<typeof client>;

const RETRYABLE = new Set([429, 500, 502, 503, 504]);

/** Submits, retrying retryable answers up to `attempts` times; returns every answer in order. */
export async function submitWithRetries(
  api: Api,
  body: Record<string, unknown>,
  idempotencyKey: string,
  attempts = 5,
): Promise<Response[]> {
  const answers: Response[] = [];
  for (let i = 0; i < attempts; i++) {
    const res = await api.submit(body, idempotencyKey);
    answers.push(res);
    if (!RETRYABLE.has(res.status)) break;
  }
  return answers;
}

/** Polls GET /v1/media/generations/{id}; between polls the emulator clock moves by poll_after_seconds instead of the test sleeping. */
export async function pollUntilFinal(api: Api, control: Control, id: string, maxPolls = 200) {
  const seen: string[] = [];
  for (let i = 0; i < maxPolls; i++) {
    const res = await api.get(`/v1/media/generations/${id}`);
    if (res.status !== 200) throw new Error(`poll answered ${res.status}: ${JSON.stringify(res.body)}`);
    const generation = res.body.generation;
    if (seen.at(-1) !== generation.status) seen.push(generation.status);
    if (generation.status === 'completed' || generation.status === 'failed') return { generation, seen, polls: i + 1 };
    await control.advance('5s');
  }
  throw new Error(`generation ${id} was not final after ${maxPolls} polls (seen: ${seen.join(' -> ')})`);
}
