// The store's commit of one submission, as many times as asked: the rows a real submission wrote, under fresh keys (no node: import; the page runs it too).
import type { ChangeBatch, DocumentRow } from '../../src/infra/sqlite-store.js';

/** What one submission commits (read back from a real emulator's state file by browser-store.ts). */
export interface SubmissionRows {
  generation: DocumentRow;
  ledger: DocumentRow;
  idempotency: DocumentRow;
  meta: Record<string, string>;
}

/** A stand-in for the client's Idempotency-Key: spread over the key space as random keys are, the same every run. */
const clientKey = (i: number) => `bench-${Math.imul(i + 1, 2654435761 >>> 0).toString(36)}-${i}`;

/**
 * `n` batches as the change tracker builds them for submissions: meta (ids, ledger totals), one generation, its
 * charge and its idempotency record, then the expiry of records past the window. Generation ids grow at the right
 * edge, as the emulator's time-ordered ids do; idempotency keys land anywhere, as clients' keys do.
 */
export function submissionBatches(rows: SubmissionRows, n: number): ChangeBatch[] {
  const oldId = String(rows.generation.key);
  return Array.from({ length: n }, (_, i) => {
    const id = `gen_${i.toString(36).padStart(8, '0')}0bench0000000`.slice(0, oldId.length);
    return {
      meta: rows.meta,
      upsert: {
        generations: [{ ...rows.generation, key: id, seq: i + 1, json: rows.generation.json.replaceAll(oldId, id) }],
        ledger: [{ key: i + 1, json: rows.ledger.json.replaceAll(oldId, id) }],
        idempotency: [
          { ...rows.idempotency, key: `1\u0000${clientKey(i)}`, json: rows.idempotency.json.replaceAll(oldId, id) },
        ],
        uploads: [],
        accounts: [],
        api_keys: [],
      },
      delete: { uploads: [] },
      idempotencyUpTo: (rows.idempotency.createdAt ?? 0) - 86_400_000,
    };
  });
}
