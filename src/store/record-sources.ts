// The domain stores' on-demand reads, answered by the store of record: committed generations, ledger entries, idempotency records.
import type { Generation } from '../domain/generation.js';
import type { GenerationSource } from '../domain/generation-source.js';
import type { IdempotencyEntry, IdempotencySource } from '../domain/idempotency.js';
import type { LedgerEntry, LedgerSource } from '../domain/ledger.js';
import type { SqliteStore } from '../infra/sqlite-store.js';

/** Where the stores of a context find what has been committed: the store of record's reads. */
export interface RecordSources {
  generations: GenerationSource;
  ledger: LedgerSource;
  idempotency: IdempotencySource;
}

const parse = <T>(json: string | undefined): T | undefined =>
  json === undefined ? undefined : (JSON.parse(json) as T);

/**
 * `flush` commits what the heap holds and the store does not yet, before a query that selects by columns: a page
 * must see the generation accepted a moment ago, and a commit costs less than merging the two by hand. Reads by key
 * and the ledger need none: the stores look in the heap first, and an uncommitted ledger entry is never in the store.
 */
export function recordSources(store: SqliteStore, flush: () => void): RecordSources {
  return {
    generations: {
      get: (id) => parse<Generation>(store.document('generations', id)),
      query(query, held) {
        flush();
        const page = {
          accountId: query.accountId,
          status: query.status,
          kind: query.kind,
          modelSlug: query.modelSlug,
          from: query.from,
          to: query.to,
          text: query.text,
          before: query.before,
          limit: query.limit,
          offset: query.offset,
        };
        if (!held) return store.generationPage(page).map((json) => JSON.parse(json) as Generation);
        // A list read again finds its page in the heap's cache: only the keys are read, no document parsed.
        return store.generationKeys(page).flatMap((id) => {
          const g = held(id) ?? parse<Generation>(store.document('generations', id));
          return g ? [g] : [];
        });
      },
      count: () => store.count('generations'),
      countByStatus(filter) {
        flush();
        return store.generationCounts(filter);
      },
      // No flush: the scheduler skips a row the heap has moved past (see StoredTasks.live).
      waiting: (query) => store.waitingGenerations(query),
    },
    ledger: {
      ofGeneration: (id) => store.generationLedger(id).map((json) => JSON.parse(json) as LedgerEntry),
      ofGenerations: (ids) => store.generationsLedger(ids).map((json) => JSON.parse(json) as LedgerEntry),
      list: ({ accountId }) => store.ledgerEntries(accountId).map((json) => JSON.parse(json) as LedgerEntry),
    },
    idempotency: {
      get: (key) => parse<IdempotencyEntry>(store.document('idempotency', key)),
      all() {
        flush();
        return store.documents('idempotency').map((row) => [String(row.key), JSON.parse(row.json) as IdempotencyEntry]);
      },
    },
  };
}
