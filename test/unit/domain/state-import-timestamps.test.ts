// An imported state's generations answer timestamps formatted from their own createdAt and completedAt: the formatted
// copies older exports carried (`text`) are never read, forged or broken.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import { FormattedTimestamps, toPublicGeneration } from '../../../src/domain/generation-view.js';
import { parseDomainSnapshot } from '../../../src/domain/state-snapshot.js';

const CREATED = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
const COMPLETED = CREATED + 61_500;

/** The domain part of an export: the seeded account and key, and one completed generation with its charge. */
function exported(text: unknown) {
  const at = CREATED;
  return {
    clock: { now: COMPLETED, frozen: true, offset_ms: 0 },
    timing: { profile: 'manual', byModel: {} },
    accounts: [{ id: 'acct_local', name: 'Local account', createdAt: at }],
    keys: [
      {
        id: 1,
        secret: 'sk-media-local-emulator-key',
        accountId: 'acct_local',
        name: 'seeded key',
        modelScope: null,
        dailyCreditLimit: null,
        createdAt: at,
        revokedAt: null,
      },
    ],
    ledger: [
      { id: 'led_000001', seq: 1, type: 'funding', accountId: 'acct_local', amount: 1_000_000, at, note: 'seeded' },
      {
        id: 'led_000002',
        seq: 2,
        type: 'charge',
        accountId: 'acct_local',
        amount: 4,
        at,
        generationId: 'gen_000001',
        keyId: 1,
        modelSlug: 'still-sketch-v1',
      },
    ],
    generations: [
      {
        seq: 1,
        id: 'gen_000001',
        requestId: 'req_000001',
        accountId: 'acct_local',
        apiKeyId: 1,
        kind: 'image',
        modelSlug: 'still-sketch-v1',
        prompt: 'one',
        params: {},
        texts: {},
        resolvedParams: { size: '1:1', count: '1' },
        frames: {},
        status: 'completed',
        createdAt: CREATED,
        startedAt: CREATED + 1000,
        completedAt: COMPLETED,
        error: null,
        outputs: [],
        plan: { pendingMs: 1000, runningMs: 60_500, manualOnly: true },
        text,
      },
    ],
    uploads: [],
    idempotency: [],
    balances: { acct_local: 999_996 },
  };
}

/** The public record of the imported generation, as a read answers it. */
function importedRecord(text: unknown) {
  const [g] = parseDomainSnapshot(exported(text)).generations as [Generation];
  return toPublicGeneration(
    g,
    { charged: 4, refunded: 0 },
    () => ({ url: '', expiresAt: 0, expiresAtText: '' }),
    new FormattedTimestamps(),
  );
}

describe('an imported generation’s timestamps', () => {
  it('are formatted from createdAt and completedAt, not taken from the formatted copies in the file', () => {
    const record = importedRecord({ createdAt: '2020-01-01T00:00:00.000+00:00', completedAt: 'yesterday' });
    expect([record.created_at, record.completed_at]).toEqual([
      '2026-01-02T03:04:05.006+00:00',
      '2026-01-02T03:05:06.506+00:00',
    ]);
  });

  it('are answered when the file holds something other than an object there', () => {
    expect(importedRecord('x').created_at).toBe('2026-01-02T03:04:05.006+00:00');
    expect(importedRecord(7).completed_at).toBe('2026-01-02T03:05:06.506+00:00');
  });
});
