// The public generation record a client reads (spec 2.1): its billing fields, its timestamps as the API writes them,
// its outputs' links, and a failure message whose refund sentence says what holds now, after a later refund.
import { describe, expect, it } from 'vitest';
import type { Generation, OutputFile } from '../../../src/domain/generation.js';
import {
  billingStatus,
  FormattedTimestamps,
  isoTimestamp,
  type OutputUrlSigner,
  toPublicGeneration,
} from '../../../src/domain/generation-view.js';

const CREATED = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
const COMPLETED = CREATED + 61_500;

const video: OutputFile = {
  index: 0,
  fileKey: 'k0',
  mimeType: 'video/mp4',
  format: 'mp4',
  bytes: 1234,
  width: 1280,
  height: 720,
  durationSeconds: 4,
};
const image: OutputFile = { index: 1, fileKey: 'k1', mimeType: 'image/png', format: 'png', bytes: 99 };

const generation = (over: Partial<Generation> = {}): Generation =>
  ({
    seq: 1,
    id: 'gen_1',
    requestId: 'req_1',
    accountId: 'acct_1',
    apiKeyId: 7,
    kind: 'video',
    modelSlug: 'veo-3',
    prompt: 'a cat',
    params: { duration: '4' },
    texts: { caption: 'hi' },
    resolvedParams: { duration: '4' },
    frames: {},
    status: 'completed',
    createdAt: CREATED,
    startedAt: CREATED + 1000,
    completedAt: COMPLETED,
    error: null,
    outputs: [video, image],
    plan: { pendingMs: 1000, runningMs: 60_500, manualOnly: false },
    ...over,
  }) as Generation;

/** A signer that names the output in its URL and signs every link until one instant. */
const sign: OutputUrlSigner = (g, o) => ({
  url: `https://files.test/${g.id}/${o.index}.${o.format}`,
  expiresAt: 1_800_000_000,
  expiresAtText: '2027-01-15T08:00:00+00:00',
});

const failed = (message: string) =>
  generation({ status: 'failed', outputs: [], error: { code: 'generation_failed', message } });

describe('billingStatus', () => {
  it('is charged with nothing refunded, partially refunded below the charge, refunded at or past it', () => {
    expect(billingStatus({ charged: 30, refunded: 0 })).toBe('charged');
    expect(billingStatus({ charged: 30, refunded: 29 })).toBe('partially_refunded');
    expect(billingStatus({ charged: 30, refunded: 30 })).toBe('refunded');
    expect(billingStatus({ charged: 30, refunded: 31 })).toBe('refunded');
  });
});

describe('isoTimestamp', () => {
  it('writes milliseconds as ISO 8601 with an explicit +00:00 offset, as the real service does', () => {
    expect(isoTimestamp(CREATED)).toBe('2026-01-02T03:04:05.006+00:00');
  });
});

describe('toPublicGeneration', () => {
  it('answers a completed generation with its fields, credits and signed outputs', () => {
    expect(toPublicGeneration(generation(), { charged: 30, refunded: 10 }, sign, new FormattedTimestamps())).toEqual({
      id: 'gen_1',
      request_id: 'req_1',
      api_key_id: 7,
      kind: 'video',
      model_slug: 'veo-3',
      prompt: 'a cat',
      params: { duration: '4' },
      texts: { caption: 'hi' },
      status: 'completed',
      created_at: '2026-01-02T03:04:05.006+00:00',
      completed_at: '2026-01-02T03:05:06.506+00:00',
      charged_credits: 30,
      refunded_credits: 10,
      net_credits: 20,
      billing_status: 'partially_refunded',
      outputs: [
        {
          url: 'https://files.test/gen_1/0.mp4',
          index: 0,
          mime_type: 'video/mp4',
          format: 'mp4',
          bytes: 1234,
          width: 1280,
          height: 720,
          duration_seconds: 4,
          expires_at: '2027-01-15T08:00:00+00:00',
        },
        {
          url: 'https://files.test/gen_1/1.png',
          index: 1,
          mime_type: 'image/png',
          format: 'png',
          bytes: 99,
          expires_at: '2027-01-15T08:00:00+00:00',
        },
      ],
      error: null,
    });
  });

  it('leaves out an output’s size and duration when it has none, rather than answering them as undefined', () => {
    const [, item] = toPublicGeneration(
      generation(),
      { charged: 1, refunded: 0 },
      sign,
      new FormattedTimestamps(),
    ).outputs;
    expect(Object.keys(item ?? {})).not.toContain('width');
    expect(Object.keys(item ?? {})).not.toContain('height');
    expect(Object.keys(item ?? {})).not.toContain('duration_seconds');
  });

  it('answers no outputs and no completion time before completion, even for a record holding outputs', () => {
    // An imported state may hold outputs on a generation that is not completed (the schema does not tie them).
    const running = generation({ status: 'running', completedAt: null });
    const view = toPublicGeneration(running, { charged: 5, refunded: 0 }, sign, new FormattedTimestamps());
    expect(view.outputs).toEqual([]);
    expect(view.completed_at).toBeNull();
    expect(view.created_at).toBe('2026-01-02T03:04:05.006+00:00');
  });

  it('answers the same timestamps on every read, and keeps nothing on the record (stored rows and exports)', () => {
    const g = generation();
    const untouched = structuredClone(g);
    const timestamps = new FormattedTimestamps();
    const first = toPublicGeneration(g, { charged: 1, refunded: 0 }, sign, timestamps);
    const again = toPublicGeneration(g, { charged: 1, refunded: 0 }, sign, timestamps);
    expect([again.created_at, again.completed_at]).toEqual([first.created_at, first.completed_at]);
    expect(again.completed_at).toBe('2026-01-02T03:05:06.506+00:00');
    expect(g).toStrictEqual(untouched);
  });

  it('answers each timestamp from its own field, even when the generation was read before it completed', () => {
    const g = generation({ status: 'running', completedAt: null });
    const timestamps = new FormattedTimestamps();
    toPublicGeneration(g, { charged: 1, refunded: 0 }, sign, timestamps);
    Object.assign(g, { status: 'completed', completedAt: COMPLETED });
    const view = toPublicGeneration(g, { charged: 1, refunded: 0 }, sign, timestamps);
    expect(view.created_at).toBe('2026-01-02T03:04:05.006+00:00');
    expect(view.completed_at).toBe('2026-01-02T03:05:06.506+00:00');
  });
});

describe('a failed generation’s message', () => {
  const said = (message: string, charged: number, refunded: number) =>
    toPublicGeneration(failed(message), { charged, refunded }, sign, new FormattedTimestamps()).error;

  it('says the charge was refunded once a later refund gave all of it back', () => {
    expect(said('The render failed. The charge stands.', 30, 30)).toEqual({
      code: 'generation_failed',
      message: 'The render failed. The charge was refunded.',
    });
  });

  it('says how much came back after a partial refund', () => {
    expect(said('The render failed. The charge stands.', 30, 12)?.message).toBe(
      'The render failed. 12 of the 30 credits charged were refunded.',
    );
  });

  it('says the charge stands when nothing was refunded, whatever the message said before', () => {
    expect(said('The render failed. The charge was refunded.', 30, 0)?.message).toBe(
      'The render failed. The charge stands.',
    );
    expect(said('The render failed. 5 of the 30 credits charged were refunded.', 30, 0)?.message).toBe(
      'The render failed. The charge stands.',
    );
  });

  it('rewrites a partial-refund sentence with many-digit amounts as a whole', () => {
    expect(said('Failed. 150 of the 1200 credits charged were refunded.', 1200, 1200)?.message).toBe(
      'Failed. The charge was refunded.',
    );
  });

  it('leaves alone a message that does not end with a refund sentence', () => {
    expect(said('The prompt was refused by the safety filter.', 30, 30)?.message).toBe(
      'The prompt was refused by the safety filter.',
    );
    expect(said('Failed. The charge stands. Retry later.', 30, 30)?.message).toBe(
      'Failed. The charge stands. Retry later.',
    );
    expect(said('Failed.The charge stands.', 30, 30)?.message).toBe('Failed.The charge stands.');
    expect(said('Failed. The charge stands', 30, 30)?.message).toBe('Failed. The charge stands');
    expect(said('Failed. x of the 30 credits charged were refunded.', 30, 30)?.message).toBe(
      'Failed. x of the 30 credits charged were refunded.',
    );
    expect(said('Failed. 5 of the y credits charged were refunded.', 30, 30)?.message).toBe(
      'Failed. 5 of the y credits charged were refunded.',
    );
  });

  it('answers a failed generation with no outputs and its completion time', () => {
    const view = toPublicGeneration(
      failed('Boom. The charge stands.'),
      { charged: 30, refunded: 0 },
      sign,
      new FormattedTimestamps(),
    );
    expect(view.outputs).toEqual([]);
    expect(view.status).toBe('failed');
    expect(view.billing_status).toBe('charged');
    expect(view.net_credits).toBe(30);
  });
});
