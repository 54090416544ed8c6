// The public API's reads on their own: what a read tells the output access plugin, another account's generation
// answered as a missing one, and a list page's credits read from the store of record in one query. Real ledger and
// generation store; no emulator.
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../src/domain/accounts.js';
import type { DomainContext, OutputAccess } from '../../../src/domain/context.js';
import { DomainError } from '../../../src/domain/errors.js';
import type { Generation, GenerationStatus } from '../../../src/domain/generation.js';
import { GenerationStore } from '../../../src/domain/generation-store.js';
import { FormattedTimestamps } from '../../../src/domain/generation-view.js';
import { Ledger, type LedgerEntry } from '../../../src/domain/ledger.js';
import { listGenerations, ownGeneration, peekView, publicView } from '../../../src/domain/queries.js';

const NOW = Date.UTC(2026, 2, 4, 5, 6, 7);
const BASE = 'http://emulator.test';

const KEY: ApiKey = {
  id: 7,
  secret: 'sk_test',
  accountId: 'acct_1',
  name: 'ci key',
  modelScope: null,
  dailyCreditLimit: null,
  createdAt: 0,
  revokedAt: null,
};

function generation(seq: number, status: GenerationStatus, accountId = 'acct_1'): Generation {
  return {
    seq,
    id: `gen_${seq}`,
    requestId: `req_${seq}`,
    accountId,
    apiKeyId: 7,
    kind: 'video',
    modelSlug: 'm',
    prompt: 'p',
    params: {},
    texts: {},
    resolvedParams: {},
    frames: {},
    status,
    createdAt: NOW,
    startedAt: null,
    completedAt: status === 'completed' ? NOW : null,
    error: null,
    outputs:
      status === 'completed'
        ? [{ index: 0, fileKey: 'k', mimeType: 'video/mp4', format: 'mp4', bytes: 10, durationSeconds: 5 }]
        : [],
    plan: { pendingMs: 0, runningMs: 0, manualOnly: false },
  };
}

/** The parts of a domain context the reads use; `shown` records what the output access plugin was told. */
function context(ledger = new Ledger(() => 'led')) {
  const shown: string[] = [];
  const outputAccess: OutputAccess = {
    signing: () => undefined,
    refusal: () => undefined,
    shown: (g) => shown.push(g.id),
  };
  const parts: Pick<DomainContext, 'ledger' | 'generations' | 'outputSigner' | 'outputAccess' | 'timestamps'> = {
    ledger,
    generations: new GenerationStore(),
    outputSigner: (baseUrl) => (g, o) => ({
      url: `${baseUrl}/files/${g.id}/${o.index}`,
      expiresAt: 1,
      expiresAtText: '1970-01-01T00:00:01+00:00',
    }),
    outputAccess,
    timestamps: new FormattedTimestamps(),
  };
  return { ctx: parts as DomainContext, shown };
}

describe('publicView and peekView', () => {
  it('tell the output access plugin only when publicView shows a completed generation', () => {
    const { ctx, shown } = context();
    const done = generation(1, 'completed');
    for (const status of ['pending', 'running', 'failed'] as const) publicView(ctx, generation(2, status), BASE);
    expect(shown).toEqual([]);
    expect(peekView(ctx, done, BASE).outputs).toHaveLength(1);
    expect(shown).toEqual([]);
    expect(publicView(ctx, done, BASE).outputs).toEqual([expect.objectContaining({ url: `${BASE}/files/gen_1/0` })]);
    expect(shown).toEqual(['gen_1']);
  });

  it('answer a completed generation the same when no output access plugin is installed', () => {
    const { ctx } = context();
    const done = generation(1, 'completed');
    const bare = { ...ctx, outputAccess: undefined };
    expect(publicView(bare, done, BASE)).toEqual(peekView(ctx, done, BASE));
  });
});

describe('ownGeneration', () => {
  it("gives the key's account its own generation, and answers another account's exactly like a missing one", () => {
    const { ctx } = context();
    const mine = generation(1, 'pending');
    ctx.generations.add(mine);
    ctx.generations.add(generation(2, 'pending', 'acct_2'));
    expect(ownGeneration(ctx, KEY, 'gen_1')).toBe(mine);
    for (const id of ['gen_2', 'gen_404']) {
      expect(() => ownGeneration(ctx, KEY, id)).toThrow(DomainError);
      expect(() => ownGeneration(ctx, KEY, id)).toThrow(
        expect.objectContaining({
          code: 'generation_not_found',
          message: `Generation '${id}' does not exist for this account. Use the id from the submission response.`,
        }),
      );
    }
  });
});

describe('listGenerations', () => {
  it("reads a page's credits from the store of record in one query, not one per generation", () => {
    // A ledger resumed from the store of record after a restart: every entry is there, none in the heap.
    const stored: LedgerEntry[] = [1, 2, 3, 4].map((seq) => ({
      id: `led_${seq}`,
      seq,
      type: 'charge',
      accountId: 'acct_1',
      amount: seq * 10,
      at: NOW,
      generationId: `gen_${seq}`,
    }));
    const reads: string[][] = [];
    const ledger = new Ledger(() => 'led');
    ledger.resume(
      {
        ofGeneration: (id) => {
          reads.push([id]);
          return stored.filter((e) => e.generationId === id);
        },
        ofGenerations: (ids) => {
          reads.push(ids);
          return stored.filter((e) => e.generationId !== undefined && ids.includes(e.generationId));
        },
        list: () => stored,
      },
      { size: 4, balances: [], funded: [], keyDayNet: [], accountDay: [], models: [] },
    );
    const { ctx } = context(ledger);
    for (const seq of [1, 2, 3, 4]) ctx.generations.add(generation(seq, 'pending'));

    const page = listGenerations(ctx, KEY, BASE, {}, 10);
    expect(page.generations.map((g) => [g.id, g.charged_credits])).toEqual([
      ['gen_4', 40],
      ['gen_3', 30],
      ['gen_2', 20],
      ['gen_1', 10],
    ]);
    expect(reads).toEqual([['gen_4', 'gen_3', 'gen_2', 'gen_1']]);
  });
});
