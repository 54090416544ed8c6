// A blank domain context over the real stores, clock, scheduler and lifecycle (no emulator, no renderer, no seeded
// account): what a state import fills. Renders finish at once with no outputs.
import { AccountStore, KEY_ID_SCOPE } from '../../src/domain/accounts.js';
import type { DomainContext } from '../../src/domain/context.js';
import { GenerationStore } from '../../src/domain/generation-store.js';
import { IdempotencyStore } from '../../src/domain/idempotency.js';
import { Ledger } from '../../src/domain/ledger.js';
import { Lifecycle } from '../../src/domain/lifecycle.js';
import { UploadStore } from '../../src/domain/uploads.js';
import { createClock } from '../../src/infra/clock.js';
import { createSequentialIds } from '../../src/infra/ids.js';
import { createScheduler } from '../../src/infra/scheduler.js';

export function blankDomainContext(frozenAt = 0): DomainContext {
  const clock = createClock({ frozenAt });
  const scheduler = createScheduler(clock);
  const ids = createSequentialIds();
  const ledger = new Ledger(() => ids.next('led'));
  const generations = new GenerationStore();
  const lifecycle = new Lifecycle({
    clock,
    scheduler,
    ledger,
    render: async () => [],
    moved: (g) => generations.touch(g),
    find: (id) => generations.get(id),
    lastSeq: () => generations.lastSeq,
  });
  generations.listen(lifecycle);
  const accounts = new AccountStore({ peek: () => ids.peekInt(KEY_ID_SCOPE), take: () => ids.nextInt(KEY_ID_SCOPE) });
  return {
    accounts,
    ledger,
    generations,
    idempotency: new IdempotencyStore(3_600_000),
    uploads: new UploadStore(),
    lifecycle,
    clock,
    scheduler,
    ids,
    settings: { pollAfterSeconds: 1, idempotencyWindowMs: 3_600_000, timing: { profile: 'instant', byModel: {} } },
  } as unknown as DomainContext;
}
