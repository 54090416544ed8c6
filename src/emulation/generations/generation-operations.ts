// Control operations on generations: list every account's, complete or fail one now, refund one, read the ledger.
import type * as z from 'zod';
import { DomainError } from '../../domain/errors.js';
import type { Generation } from '../../domain/generation.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import type { failInput, generationsQuery, ledgerQuery, refundInput } from '../inputs.js';
import { generationView, ledgerView, type AdminGenerationView, type LedgerEntryView } from '../views.js';

export function findGeneration(deps: ControlDeps, id: string): Generation {
  const g = contextOf(deps).generations.get(id);
  if (!g)
    throw new DomainError(
      'generation_not_found',
      `Generation '${id}' does not exist. List generations with GET /_emulator/generations.`,
    );
  return g;
}

const view = (deps: ControlDeps, g: Generation) => generationView(contextOf(deps), g, deps.baseUrl ?? '');

export function getGeneration(deps: ControlDeps, id: string): AdminGenerationView {
  return view(deps, findGeneration(deps, id));
}

/** Newest first, every account; `status`, `account_id` and `limit` (default 100) narrow it. */
export function listGenerations(deps: ControlDeps, q: z.output<typeof generationsQuery>): AdminGenerationView[] {
  const limit = q.limit ?? 100;
  const found: Generation[] = [];
  if (limit > 0)
    for (const g of contextOf(deps).generations.newestFirst({ status: q.status, accountId: q.account_id })) {
      found.push(g);
      if (found.length === limit) break;
    }
  return found.map((g) => view(deps, g));
}

/** Completes now, whatever the plan said (a stalled or scripted-to-fail generation too), once its outputs are rendered. */
export async function completeGeneration(deps: ControlDeps, id: string): Promise<AdminGenerationView> {
  const g = findGeneration(deps, id);
  await contextOf(deps).lifecycle.completeNow(g);
  return view(deps, g);
}

/** Fails now with a code (default internal_error), a message and a refund policy (default full). */
export function failGeneration(deps: ControlDeps, id: string, body: z.output<typeof failInput>): AdminGenerationView {
  const g = findGeneration(deps, id);
  contextOf(deps).lifecycle.failNow(g, {
    code: body.code ?? 'internal_error',
    message: body.message,
    refund: body.refund ?? 'full',
  });
  return view(deps, g);
}

/** Refunds a final generation: what is left in full, or `amount`. A second full refund is 409 already_refunded. */
export function refundGeneration(
  deps: ControlDeps,
  id: string,
  body: z.output<typeof refundInput>,
): { generation: AdminGenerationView; refunded: number } {
  const g = findGeneration(deps, id);
  const refunded = contextOf(deps).lifecycle.refund(
    g,
    body.amount === undefined ? { kind: 'full' } : { kind: 'partial', amount: body.amount },
  );
  return { generation: view(deps, g), refunded };
}

export function ledgerEntries(deps: ControlDeps, q: z.output<typeof ledgerQuery>): LedgerEntryView[] {
  return contextOf(deps).ledger.list({ accountId: q.account_id, generationId: q.generation_id }).map(ledgerView);
}
