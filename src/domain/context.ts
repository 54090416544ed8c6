// Everything a domain operation needs, gathered once per emulator (and rebuilt on reset).
import type { Clock } from '../infra/clock.js';
import type { HostCrypto } from '../infra/host-crypto.js';
import type { IdGenerator } from '../infra/ids.js';
import type { Random } from '../infra/random.js';
import type { Scheduler } from '../infra/scheduler.js';
import type { AccountStore, ApiKey } from './accounts.js';
import type { Catalogue } from './catalogue.js';
import type { ModelEntry } from './catalogue-schema.js';
import type { Generation, GenerationPlan } from './generation.js';
import type { GenerationStore } from './generation-store.js';
import type { FormattedTimestamps, OutputUrlSigner } from './generation-view.js';
import type { CursorTags } from './page-cursor.js';
import type { IdempotencyStore } from './idempotency.js';
import type { Ledger } from './ledger.js';
import type { Lifecycle } from './lifecycle.js';
import type { GenerationInput } from './generation-input.js';
import type { OutputFileSource } from './output-file-source.js';
import type { TimingSettings } from './timing.js';
import type { UploadStore } from './uploads.js';

export interface DomainSettings {
  pollAfterSeconds: number;
  idempotencyWindowMs: number;
  timing: TimingSettings;
}

/** What a plan adjuster sees of one accepted submission: all passed in, nothing looked up from the request. */
export interface PlanAdjusterInput {
  key: ApiKey;
  model: ModelEntry;
  body: GenerationInput;
  plan: GenerationPlan;
  /** The price just charged, so a hook never prices the request again. */
  credits: number;
  idempotencyKey: string;
}

/** Who changed a generation's plan at acceptance (an id of the adjuster's choosing) and why, in words. */
export interface PlanAdjustment {
  by?: string;
  reason?: string;
}

/** What a plan adjuster decided: the plan, who and why, and what it keeps of its own once the generation exists. */
export interface PlanAdjusted extends PlanAdjustment {
  plan: GenerationPlan;
  /** Called with the new generation's id in the same step, so the adjuster keeps its own outcome (links) under it. */
  accepted?(generationId: string): void;
}

/**
 * A plugin's say in a generation's plan at acceptance. Undefined leaves the plan; the adjustment's `by` and `reason`
 * come back to the caller in the submission result.
 */
export type PlanAdjuster = (input: PlanAdjusterInput) => PlanAdjusted | undefined;

/**
 * How a plugin that scripts output links wants them answered; the core asks and keeps nothing of it. Without one,
 * every link is signed for the URL lifetime and served until it expires.
 */
export interface OutputAccess {
  /** `expired`: g's links are signed already past; a number (seconds): they expire after it at the earliest. */
  signing(g: Generation): 'expired' | number | undefined;
  /** How a verified link to g's outputs, expiring at `expires` (seconds), answers instead of its file. */
  refusal(g: Generation, expires: number): 'expired' | 'missing' | undefined;
  /** A public read has just shown g's outputs (a plugin may change its answer for the next read). */
  shown(g: Generation): void;
}

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
  /** The generations' timestamps as answers write them, formatted once each. */
  timestamps: FormattedTimestamps;
  /** Signs output URLs for a request that reached the emulator at `baseUrl`. */
  outputSigner: (baseUrl: string) => OutputUrlSigner;
  /** Tags list cursors with the instance's signing secret, so only cursors it issued are read back. */
  cursorTags: CursorTags;
  /** The bytes behind a signed link: stored, or rendered again when a restart or an eviction lost them. */
  outputFiles: OutputFileSource;
  /** The host's SHA-256 (an upload's content hash), as lower-case hex. */
  sha256Hex: HostCrypto['sha256Hex'];
  /** Adjusts a generation's plan at acceptance; the host's adjuster returns nothing to leave the plan alone. */
  planAdjuster: PlanAdjuster;
  outputAccess?: OutputAccess;
  /** Throws for a prompt the plan adjuster would refuse at submission, so an estimate agrees. */
  promptCheck?: (prompt: string) => void;
}
