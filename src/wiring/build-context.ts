// Builds a fresh domain context from the options: the seeded account, key and balance. reset() calls it again.
import type { ResolvedOptions } from '../config.js';
import { AccountStore, KEY_ID_SCOPE } from '../domain/accounts.js';
import type { Catalogue } from '../domain/catalogue.js';
import type { DomainContext, OutputAccess, PlanAdjuster } from '../domain/context.js';
import { LAST_INSTANT_MS } from '../domain/durations.js';
import { GenerationStore } from '../domain/generation-store.js';
import { FormattedTimestamps } from '../domain/generation-view.js';
import { IdempotencyStore } from '../domain/idempotency.js';
import { Ledger } from '../domain/ledger.js';
import { Lifecycle } from '../domain/lifecycle.js';
import { UploadStore } from '../domain/uploads.js';
import { createClock, type Clock } from '../infra/clock.js';
import type { HostCrypto } from '../infra/host-crypto.js';
import { createRandomIds, createSequentialIds } from '../infra/ids.js';
import { createRandom } from '../infra/random.js';
import type { AnyRenderer } from '../infra/renderer.js';
import { createScheduler } from '../infra/scheduler.js';
import type { Signer } from '../infra/signer.js';
import { outputSigner } from './output-urls.js';
import { createOutputFileSource } from './output-file-source.js';
import { createRenderPort } from './render-port.js';

export const SEEDED_ACCOUNT_ID = 'acct_local';

export interface ContextDeps {
  options: ResolvedOptions;
  catalogue: Catalogue;
  signer: Signer;
  /** The host's hashing and random bytes (Node: node:crypto). */
  crypto: HostCrypto;
  /** How many renders the host can run side by side when maxParallelRenders is not set (Node: availableParallelism()). */
  parallelism: () => number;
  renderer: () => Promise<AnyRenderer>;
  uploadBytes: (id: string) => Promise<Uint8Array>;
  currentRenderer: () => AnyRenderer | undefined;
  planAdjuster: PlanAdjuster;
  outputAccess?: OutputAccess;
  promptCheck?: (prompt: string) => void;
  /** False builds a blank context (no seeded account, key or balance) for a state import to fill. */
  seeded?: boolean;
  /** The sandbox its signed output URLs name, so a download finds its world; none for the default world. */
  linkWorld?: string;
}

function startingClock(options: ResolvedOptions): Clock {
  // Time stops at the last instant the service can write, so no answer or export ever reads year 10000.
  if (options.clock === 'real') return createClock({ latest: LAST_INSTANT_MS });
  const start = options.clockStart === undefined ? Date.now() : new Date(options.clockStart).getTime();
  return createClock({ frozenAt: Number.isFinite(start) ? start : Date.now(), latest: LAST_INSTANT_MS });
}

export function buildContext(deps: ContextDeps): DomainContext {
  const { options } = deps;
  const clock = startingClock(options);
  const scheduler = createScheduler(clock);
  const ids = options.seed === undefined ? createRandomIds() : createSequentialIds();
  const random = createRandom(options.seed, deps.crypto.randomBytes);
  const ledger = new Ledger(() => ids.next('led'));
  const uploads = new UploadStore();
  const accounts = new AccountStore({
    peek: () => ids.peekInt(KEY_ID_SCOPE),
    take: () => ids.nextInt(KEY_ID_SCOPE),
  });
  const now = clock.now();
  if (deps.seeded !== false) {
    accounts.createAccount(SEEDED_ACCOUNT_ID, 'Local account', now);
    accounts.createKey({ accountId: SEEDED_ACCOUNT_ID, secret: options.apiKey, name: 'seeded key' }, now);
    if (options.initialBalance > 0)
      ledger.append({
        type: 'funding',
        accountId: SEEDED_ACCOUNT_ID,
        amount: options.initialBalance,
        at: now,
        note: 'seeded balance',
      });
  }
  const generations = new GenerationStore();
  const renders = {
    renderer: deps.renderer,
    currentRenderer: deps.currentRenderer,
    catalogue: deps.catalogue,
    uploads,
    uploadBytes: deps.uploadBytes,
    outputLabel: options.outputLabel,
    sha256Hex: deps.crypto.sha256Hex,
    retainUntil: () => clock.now() + options.urlTtlSeconds * 1000,
    log: options.log,
  };
  const lifecycle = new Lifecycle({
    clock,
    scheduler,
    ledger,
    moved: (g) => generations.touch(g),
    find: (id) => generations.get(id),
    resident: (id) => generations.resident(id),
    lastSeq: () => generations.lastSeq,
    log: options.log,
    // Twice the ffmpeg processes, so a slot's next render is queued in the renderer while another finishes writing.
    renderSlots: 2 * (options.maxParallelRenders || deps.parallelism()),
    render: createRenderPort(renders),
  });
  generations.listen(lifecycle);
  return {
    catalogue: deps.catalogue,
    accounts,
    ledger,
    generations,
    idempotency: new IdempotencyStore(options.idempotencyWindowHours * 3_600_000),
    uploads,
    lifecycle,
    clock,
    scheduler,
    ids,
    random,
    settings: {
      pollAfterSeconds: options.pollAfterSeconds,
      idempotencyWindowMs: options.idempotencyWindowHours * 3_600_000,
      timing: { profile: options.timing, byModel: { ...options.timingByModel } },
    },
    planAdjuster: deps.planAdjuster,
    outputAccess: deps.outputAccess,
    promptCheck: deps.promptCheck,
    outputSigner: outputSigner({
      clock,
      signer: deps.signer,
      urlTtlSeconds: options.urlTtlSeconds,
      access: deps.outputAccess,
      currentRenderer: deps.currentRenderer,
      world: deps.linkWorld,
    }),
    outputFiles: createOutputFileSource(renders),
    cursorTags: deps.signer,
    timestamps: new FormattedTimestamps(),
    sha256Hex: deps.crypto.sha256Hex,
  };
}
