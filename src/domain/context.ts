// Everything a domain operation needs, gathered once per emulator (and rebuilt on reset).
import type { Clock } from '../infra/clock.js';
import type { IdGenerator } from '../infra/ids.js';
import type { Random } from '../infra/random.js';
import type { Scheduler } from '../infra/scheduler.js';
import type { AccountStore, ApiKey } from './accounts.js';
import type { Catalogue } from './catalogue.js';
import type { ModelEntry } from './catalogue-schema.js';
import type { GenerationPlan } from './generation.js';
import type { GenerationStore } from './generation-store.js';
import type { OutputUrlSigner } from './generation-view.js';
import type { IdempotencyStore } from './idempotency.js';
import type { Ledger } from './ledger.js';
import type { Lifecycle } from './lifecycle.js';
import type { GenerationInput } from './model-rules.js';
import type { TimingSettings } from './timing.js';
import type { UploadStore } from './uploads.js';

export interface DomainSettings {
  pollAfterSeconds: number;
  idempotencyWindowMs: number;
  timing: TimingSettings;
  /** `[emulator:…]` markers are honoured (and so checked) by the plan hook; the estimate checks them the same way. */
}

/** What a plan hook sees of one accepted submission: everything is passed in, nothing is looked up from the request. */
export interface PlanHookInput {
  key: ApiKey;
  model: ModelEntry;
  body: GenerationInput;
  plan: GenerationPlan;
  /** The price just charged, so a hook never prices the request again. */
  credits: number;
  idempotencyKey: string;
}

/**
 * Lets fault rules and magic prompt markers script a generation's outcome at acceptance. Undefined leaves the plan;
 * `note` (the rule that acted) and `reason` (why it matched) come back to the caller in the submission result.
 */
export type PlanHook = (input: PlanHookInput) => { plan: GenerationPlan; note?: string; reason?: string } | undefined;

export interface DomainContext {
  catalogue: Catalogue;
  accounts: AccountStore;
  ledger: Ledger;
  generations: GenerationStore;
  idempotency: IdempotencyStore;
  uploads: UploadStore;
  lifecycle: Lifecycle;
  clock: Clock;
  scheduler: Scheduler;
  ids: IdGenerator;
  random: Random;
  settings: DomainSettings;
  /** Signs output URLs for a request that reached the emulator at `baseUrl`. */
  outputSigner: (baseUrl: string) => OutputUrlSigner;
  planHook?: PlanHook;
  /** Throws for a prompt the plan hook would refuse at submission (a malformed magic marker), so an estimate agrees. */
  promptCheck?: (prompt: string) => void;
}
