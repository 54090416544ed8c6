// /_emulator/generations and /_emulator/ledger, declared once (registry/operation.ts).
import * as z from 'zod';
import { defineOperation } from '../registry/operation.js';
import { adminGenerationSchema, ledgerEntrySchema } from '../openapi/control-schemas.js';
import { detailSchema } from '../openapi/control-console.js';
import { failInput, generationsQuery, ledgerQuery, refundInput, waitInput } from '../inputs.js';
import { waitFor } from '../clock/wait-for.js';
import { generationDetail } from './generation-detail.js';
import { PlaneError } from '../error-codes.js';
import { findGeneration, generationOf } from './generation-operations.js';
import type { Generation } from '../../domain/generation.js';
import { contextOf } from '../plane-state.js';
import { ledgerView } from '../views.js';

const found = 'generation_not_found';
const envelope = z.strictObject({ generation: adminGenerationSchema }).meta({ id: 'AdminGenerationEnvelope' });

export const GENERATION_API = {
  adminListGenerations: defineOperation({
    method: 'get',
    path: '/_emulator/generations',
    summary: 'Generations of every account, newest first',
    query: generationsQuery,
    input: 'generations query',
    answer: z.strictObject({ generations: z.array(adminGenerationSchema) }).meta({ id: 'AdminGenerationList' }),
    handle: (deps, { query: q }) => {
      const limit = q.limit ?? 100;
      const found: Generation[] = [];
      // At least 1 (generationsQuery), so the loop always stops at a generation it kept.
      for (const g of contextOf(deps).generations.newestFirst({ status: q.status, accountId: q.account_id })) {
        found.push(g);
        if (found.length === limit) break;
      }
      return { generations: found.map((g) => generationOf(deps, g)) };
    },
  }),
  adminGetGeneration: defineOperation({
    method: 'get',
    path: '/_emulator/generations/:id',
    summary: 'One generation of any account',
    answer: envelope,
    errors: [found],
    handle: (deps, { params }) => ({ generation: generationOf(deps, findGeneration(deps, params.id)) }),
  }),
  completeGeneration: defineOperation({
    method: 'post',
    path: '/_emulator/generations/:id/complete',
    summary: 'Complete a generation now, once its outputs are rendered',
    answer: envelope,
    errors: [found, 'generation_final'],
    // Whatever the plan said (a stalled or scripted-to-fail generation too), once its outputs are rendered.
    handle: async (deps, { params }) => {
      const g = findGeneration(deps, params.id);
      await contextOf(deps).lifecycle.completeNow(g);
      return { generation: generationOf(deps, g) };
    },
  }),
  failGeneration: defineOperation({
    method: 'post',
    path: '/_emulator/generations/:id/fail',
    summary: 'Fail a generation now, with a code and a refund policy',
    body: failInput,
    input: 'failure',
    answer: envelope,
    errors: [found, 'generation_final', 'invalid_refund_amount'],
    handle: (deps, { params, body }) => {
      const g = findGeneration(deps, params.id);
      contextOf(deps).lifecycle.failNow(g, {
        code: body.code ?? 'internal_error',
        message: body.message,
        refund: body.refund ?? 'full',
      });
      return { generation: generationOf(deps, g) };
    },
  }),
  waitForGeneration: defineOperation({
    method: 'post',
    path: '/_emulator/generations/:id/wait',
    summary: 'Move the clock transition by transition until the generation reaches target (waitFor)',
    body: waitInput,
    input: 'wait request',
    answer: envelope,
    errors: [found, 'unreachable_state', 'invalid_duration'],
    handle: async (deps, { params, body }) => ({ generation: await waitFor(deps, params.id, body) }),
  }),
  refundGeneration: defineOperation({
    method: 'post',
    path: '/_emulator/generations/:id/refund',
    summary: 'Refund a completed or failed generation',
    body: refundInput,
    input: 'refund',
    answer: z.strictObject({ generation: adminGenerationSchema, refunded: z.int().positive() }).meta({ id: 'Refund' }),
    errors: [found, 'generation_not_final', 'already_refunded', 'invalid_refund_amount'],
    // What is left in full, or `amount`. A second full refund is 409 already_refunded.
    handle: (deps, { params, body }) => {
      const g = findGeneration(deps, params.id);
      const refunded = contextOf(deps).lifecycle.refund(
        g,
        body.amount === undefined ? { kind: 'full' } : { kind: 'partial', amount: body.amount },
      );
      return { generation: generationOf(deps, g), refunded };
    },
  }),
  ledger: defineOperation({
    method: 'get',
    path: '/_emulator/ledger',
    summary: 'Ledger entries, oldest first',
    query: ledgerQuery,
    input: 'ledger query',
    answer: z.strictObject({ entries: z.array(ledgerEntrySchema) }).meta({ id: 'Ledger' }),
    handle: (deps, { query: q }) => ({
      entries: contextOf(deps).ledger.list({ accountId: q.account_id, generationId: q.generation_id }).map(ledgerView),
    }),
  }),
  generationDetail: defineOperation({
    method: 'get',
    path: '/_emulator/generations/:id/detail',
    summary: 'One generation in depth: timeline, next move, ledger, links with their state, creating request',
    answer: detailSchema,
    errors: [found],
    handle: (deps, { params }) => generationDetail(deps, params.id),
  }),
  expireLinks: defineOperation({
    method: 'post',
    path: '/_emulator/generations/:id/expire-links',
    summary: 'Expire every output link handed out so far (403 url_expired); the next read signs fresh ones',
    answer: detailSchema,
    errors: [found, 'generation_not_completed'],
    handle: (deps, { params: { id } }) => {
      const g = findGeneration(deps, id);
      if (g.status !== 'completed')
        throw new PlaneError(
          'generation_not_completed',
          `Generation ${g.id} is ${g.status}; only a completed generation has links to expire.`,
        );
      const through = Math.floor((contextOf(deps).clock.now() + deps.options.urlTtlSeconds * 1000) / 1000);
      deps.state.links.script(g.id, { linksExpiredThrough: through });
      return generationDetail(deps, id);
    },
  }),
};
