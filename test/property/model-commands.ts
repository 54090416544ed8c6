// The commands of the model-based test: each calls the emulator, checks the answer against the reference model, updates the model.
import fc from 'fast-check';
import { expect } from 'vitest';
import type { RawClient, RawResponse } from '../helpers/raw-http.js';
import { multipart, png } from '../helpers/images.js';
import { MODELS, referencePrice } from './reference-price.js';

export const START = Date.parse('2026-03-01T20:00:00Z');
export const BALANCE = 20_000;
export const RANK = { pending: 0, running: 1, completed: 2, failed: 2 } as const;
export type Status = keyof typeof RANK;
const DAY = 86_400_000;

export interface ModelKey {
  id: number;
  secret: string;
  dailyLimit: number | null;
}
export interface ModelGeneration {
  id: string;
  keyId: number;
  /** A refund gives credits back to the UTC day of the charge it reverses. */
  chargedAt: number;
  status: Status;
  charged: number;
  refunded: number;
}
export interface Model {
  now: number;
  balance: number;
  keys: ModelKey[];
  generations: ModelGeneration[];
  /** `${key secret} ${Idempotency-Key}` -> the body sent and the generation it made. */
  submitted: Map<string, { body: string; id: string }>;
  /** Net credits per key per UTC day, as the daily ceiling counts them. */
  keyDay: Map<string, number>;
  nextIdempotency: number;
}
export interface Real {
  http: RawClient;
}

/** What the commands need from the test: a request that fails on 5xx and contract violations, and the invariants. */
export interface ModelApi {
  send(method: string, path: string, body?: unknown, headers?: [string, string][], key?: string): Promise<RawResponse>;
  checkInvariants(m: Model): Promise<void>;
}

export const expectStatus = (res: RawResponse, status: number, what: string) => {
  if (res.status !== status)
    throw new Error(`${what}: expected ${status}, got ${res.status} ${res.body.toString('utf8').slice(0, 400)}`);
};
const dayKey = (keyId: number, at: number) => `${keyId}:${Math.floor(at / DAY)}`;
export const errorCode = (res: RawResponse) => (res.json() as { error?: { code: string } }).error?.code;

export function modelCommands(api: ModelApi): fc.Arbitrary<fc.AsyncCommand<Model, Real>>[] {
  const { send } = api;
  type Cmd = fc.AsyncCommand<Model, Real>;
  const command = (name: string, run: (m: Model) => Promise<void>, check: (m: Model) => boolean = () => true): Cmd => ({
    check,
    run: async (m) => {
      await run(m);
      await api.checkInvariants(m);
    },
    toString: () => name,
  });

  const paramsFor = fc.integer({ min: 0, max: MODELS.length - 1 }).chain((i) =>
    fc.tuple(
      fc.constant(i),
      fc
        .subarray(MODELS[i].option_groups)
        .chain((groups) => fc.record(Object.fromEntries(groups.map((g) => [g.name, fc.constantFrom(...g.values)])))),
    ),
  );

  const estimate = paramsFor.map(([i, params]) =>
    command(`estimate ${MODELS[i].slug} ${JSON.stringify(params)}`, async (m) => {
      const res = await send('POST', '/v1/media/estimate', { model_slug: MODELS[i].slug, prompt: 'p', params });
      expectStatus(res, 200, 'estimate');
      expect(res.json().credits).toBe(referencePrice(MODELS[i], params as Record<string, string>));
      expect(res.json().wallet_balance).toBe(m.balance);
    }),
  );

  const submitNew = fc
    .tuple(paramsFor, fc.nat(), fc.constantFrom('enough', 'tight', 'short'))
    .map(([[i, params], keyPick, ceiling]) =>
      command(`submit ${MODELS[i].slug} ${JSON.stringify(params)} key#${keyPick} max_credits ${ceiling}`, async (m) => {
        const key = m.keys[keyPick % m.keys.length];
        const price = referencePrice(MODELS[i], params as Record<string, string>);
        const maxCredits = ceiling === 'enough' ? 1_000_000 : ceiling === 'tight' ? price : Math.max(1, price - 1);
        const idempotencyKey = `model-key-${m.nextIdempotency++}`;
        const body = JSON.stringify({
          model_slug: MODELS[i].slug,
          prompt: 'model test',
          params,
          max_credits: maxCredits,
        });
        const res = await send(
          'POST',
          '/v1/media/generations',
          body,
          [['Idempotency-Key', idempotencyKey]],
          key.secret,
        );
        const used = m.keyDay.get(dayKey(key.id, m.now)) ?? 0;
        if (maxCredits < price) {
          expectStatus(res, 402, 'over max_credits');
          expect(errorCode(res)).toBe('max_credits_exceeded');
          return;
        }
        if (key.dailyLimit !== null && used + price > key.dailyLimit) {
          expectStatus(res, 429, 'daily ceiling');
          expect(errorCode(res)).toBe('daily_credit_limit_exceeded');
          return;
        }
        if (m.balance < price) {
          expectStatus(res, 402, 'insufficient');
          expect(errorCode(res)).toBe('insufficient_credits');
          return;
        }
        expectStatus(res, 202, 'submission');
        const accepted = res.json();
        expect(accepted.replayed).toBe(false);
        expect(accepted.generation.charged_credits).toBe(price);
        m.balance -= price;
        m.keyDay.set(dayKey(key.id, m.now), used + price);
        m.generations.push({
          id: accepted.generation.id,
          keyId: key.id,
          chargedAt: m.now,
          status: 'pending',
          charged: price,
          refunded: 0,
        });
        m.submitted.set(`${key.secret} ${idempotencyKey}`, { body, id: accepted.generation.id });
      }),
    );

  const replay = fc.tuple(fc.nat(), fc.boolean()).map(([pick, sameBody]) =>
    command(
      `replay #${pick} ${sameBody ? 'same body' : 'other body'}`,
      async (m) => {
        const [entry, { body, id }] = [...m.submitted][pick % m.submitted.size];
        const [secret, idempotencyKey] = entry.split(' ');
        const sent = sameBody ? body : JSON.stringify({ ...JSON.parse(body), prompt: 'another prompt' });
        const res = await send('POST', '/v1/media/generations', sent, [['Idempotency-Key', idempotencyKey]], secret);
        if (!sameBody) {
          expectStatus(res, 409, 'reused key');
          expect(errorCode(res)).toBe('idempotency_key_reused');
          return;
        }
        expectStatus(res, 202, 'replay');
        expect(res.json().replayed).toBe(true);
        expect(res.json().generation.id).toBe(id);
      },
      (m) => m.submitted.size > 0,
    ),
  );

  const poll = fc.nat().map((pick) =>
    command(
      `poll #${pick}`,
      async (m) => {
        const g = m.generations[pick % m.generations.length];
        const res = await send('GET', `/v1/media/generations/${g.id}`);
        expectStatus(res, 200, 'poll');
        const status = res.json().generation.status as Status;
        if (RANK[status] < RANK[g.status]) throw new Error(`${g.id} moved back from ${g.status} to ${status}`);
        g.status = status;
      },
      (m) => m.generations.length > 0,
    ),
  );

  const advance = fc.constantFrom(500, 1_000, 5_000, 30_000, 3_600_000, 12 * 3_600_000).map((ms) =>
    command(`advance ${ms} ms`, async (m) => {
      const res = await send('POST', '/_emulator/clock/advance', { by: ms });
      expectStatus(res, 200, 'advance');
      m.now += ms;
      expect(Date.parse(res.json().now)).toBe(m.now);
    }),
  );

  const fail = fc
    .tuple(
      fc.nat(),
      fc.oneof(
        fc.constantFrom<unknown>('full', 'none', undefined),
        fc.integer({ min: 1, max: 4000 }).map((n) => ({ partial: n })),
      ),
    )
    .map(([pick, refund]) =>
      command(
        `fail #${pick} refund ${JSON.stringify(refund)}`,
        async (m) => {
          const g = m.generations[pick % m.generations.length];
          const res = await send('POST', `/_emulator/generations/${g.id}/fail`, refund === undefined ? {} : { refund });
          if (RANK[g.status] === 2) {
            expectStatus(res, 409, 'fail a final generation');
            expect(errorCode(res)).toBe('generation_final');
            return;
          }
          const left = g.charged - g.refunded;
          if (typeof refund === 'object' && (refund as { partial: number }).partial > left)
            return void expectStatus(res, 422, 'partial above the charge');
          expectStatus(res, 200, 'fail');
          const amount =
            refund === 'none' ? 0 : typeof refund === 'object' ? (refund as { partial: number }).partial : left;
          g.status = 'failed';
          g.refunded += amount;
          m.balance += amount;
          m.keyDay.set(dayKey(g.keyId, g.chargedAt), (m.keyDay.get(dayKey(g.keyId, g.chargedAt)) ?? 0) - amount);
          expect(res.json().generation.status).toBe('failed');
        },
        (m) => m.generations.length > 0,
      ),
    );

  const refund = fc
    .tuple(fc.nat(), fc.option(fc.integer({ min: 1, max: 4000 }), { nil: undefined }))
    .map(([pick, amount]) =>
      command(
        `refund #${pick} ${amount ?? 'the rest'}`,
        async (m) => {
          const g = m.generations[pick % m.generations.length];
          const res = await send(
            'POST',
            `/_emulator/generations/${g.id}/refund`,
            amount === undefined ? {} : { amount },
          );
          const left = g.charged - g.refunded;
          if (RANK[g.status] < 2) return void expectStatus(res, 409, 'refund before the end');
          if (left === 0) {
            expectStatus(res, 409, 'second full refund');
            expect(errorCode(res)).toBe('already_refunded');
            return;
          }
          if (amount !== undefined && amount > left) return void expectStatus(res, 422, 'refund above what is left');
          expectStatus(res, 200, 'refund');
          const refunded = amount ?? left;
          expect(res.json().refunded).toBe(refunded);
          g.refunded += refunded;
          m.balance += refunded;
          m.keyDay.set(dayKey(g.keyId, g.chargedAt), (m.keyDay.get(dayKey(g.keyId, g.chargedAt)) ?? 0) - refunded);
        },
        (m) => m.generations.length > 0,
      ),
    );

  const createKey = fc.option(fc.constantFrom(0, 100, 1000, 5000), { nil: null }).map((limit) =>
    command(`create key, daily limit ${limit}`, async (m) => {
      const res = await send('POST', '/_emulator/keys', { daily_credit_limit: limit });
      expectStatus(res, 201, 'create key');
      const { key } = res.json();
      m.keys.push({ id: key.id, secret: key.secret, dailyLimit: limit });
    }),
  );

  const upload = fc.constant(
    command('upload a reference image', async (m) => {
      const form = multipart({ model_slug: 'motion-lite-v1' }, { data: png() });
      const res = await send('POST', '/v1/media/uploads', form.body, [['Content-Type', form.contentType]]);
      expectStatus(res, 201, 'upload');
      expect((await send('GET', '/v1/media/usage')).json().wallet_balance).toBe(m.balance);
    }),
  );
  return [estimate, submitNew, submitNew, replay, poll, advance, fail, refund, createKey, upload];
}
