// /_emulator/generations and /_emulator/ledger, declared once (registry/operation.ts).
import * as z from 'zod';
import { defineOperation } from '../registry/operation.js';
import { adminGenerationSchema, ledgerEntrySchema } from '../openapi/control-schemas.js';
import { detailSchema } from '../openapi/control-console.js';
import { failInput, generationsQuery, ledgerQuery, refundInput, waitInput } from '../inputs.js';
import { waitFor } from '../clock/wait-for.js';
import { expireLinks, generationDetail } from './generation-detail.js';
import {
  completeGeneration,
  failGeneration,
  getGeneration,
  ledgerEntries,
  listGenerations,
  refundGeneration,
} from './generation-operations.js';

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
    handle: (deps, { query }) => ({ generations: listGenerations(deps, query) }),
  }),
  adminGetGeneration: defineOperation({
    method: 'get',
    path: '/_emulator/generations/:id',
    summary: 'One generation of any account',
    answer: envelope,
    errors: [found],
    handle: (deps, { params }) => ({ generation: getGeneration(deps, params.id) }),
  }),
  completeGeneration: defineOperation({
    method: 'post',
    path: '/_emulator/generations/:id/complete',
    summary: 'Complete a generation now, once its outputs are rendered',
    answer: envelope,
    errors: [found, 'generation_final'],
    handle: async (deps, { params }) => ({ generation: await completeGeneration(deps, params.id) }),
  }),
  failGeneration: defineOperation({
    method: 'post',
    path: '/_emulator/generations/:id/fail',
    summary: 'Fail a generation now, with a code and a refund policy',
    body: failInput,
    input: 'failure',
    answer: envelope,
    errors: [found, 'generation_final', 'invalid_refund_amount'],
    handle: (deps, { params, body }) => ({ generation: failGeneration(deps, params.id, body) }),
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
    handle: (deps, { params, body }) => refundGeneration(deps, params.id, body),
  }),
  ledger: defineOperation({
    method: 'get',
    path: '/_emulator/ledger',
    summary: 'Ledger entries, oldest first',
    query: ledgerQuery,
    input: 'ledger query',
    answer: z.strictObject({ entries: z.array(ledgerEntrySchema) }).meta({ id: 'Ledger' }),
    handle: (deps, { query }) => ({ entries: ledgerEntries(deps, query) }),
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
    handle: (deps, { params }) => expireLinks(deps, params.id),
  }),
};
