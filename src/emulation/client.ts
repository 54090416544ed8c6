// The typed in-process control client: the registry's operations run in this process, for tests. Every method returns a promise.
import type { AdvanceResult } from './clock/clock-operations.js';
import type { WaitOptions, WaitTarget } from './clock/wait-for.js';
import type { FaultRuleInput } from './faults/fault-schema.js';
import type { GenerationDetail } from './generations/generation-detail.js';
import type { Failure, GenerationsQuery, NewKey, SummaryQuery, TimingChange } from './inputs.js';
import type { JournalQuery } from './journal/journal-api.js';
import type { ControlDeps } from './plane-state.js';
import { CONTROL_OPERATIONS } from './registry/registry.js';
import { deriveClient } from './registry/client-bindings.js';
import type { AnyOperation, HandlerInput } from './registry/operation.js';
import type { ScenarioInput } from './scenarios/scenario-schema.js';
import type { EmulatorState } from './state/emulator-state.js';
import type { CatalogueView, Summary } from './summary.js';
import type {
  AccountView,
  AdminGenerationView,
  ClockView,
  FaultView,
  JournalEntryDetailView,
  JournalEntryView,
  KeyView,
  LedgerEntryView,
  ScenarioProgress,
  TimingView,
} from './views.js';

export interface Balance {
  account_id: string;
  balance: number;
}

export interface Control {
  /** The emulator clock's reading. */
  now(): Promise<Date>;
  clock(): Promise<ClockView>;
  /** Moves the clock by "10m", "30s", "250ms"... or ms, running due transitions in order and waiting for their renders. */
  advance(by: string | number): Promise<AdvanceResult>;
  /** Moves the clock exactly to the soonest scheduled transition; `nothing_scheduled` when there is none. */
  advanceToNext(): Promise<AdvanceResult>;
  freeze(): Promise<ClockView>;
  unfreeze(): Promise<ClockView>;

  accounts(): Promise<AccountView[]>;
  /** Sets the balance (default: the seeded account); written to the ledger as a funding entry for the difference. */
  setBalance(balance: number, accountId?: string): Promise<Balance>;
  /** Adds credits (negative takes away). */
  topUp(amount: number, accountId?: string): Promise<Balance>;
  /** The seeded API key (`--api-key`, default DEFAULT_API_KEY): the one startEmulator() returns as `apiKey`. */
  apiKey(): Promise<string>;
  keys(): Promise<KeyView[]>;
  createKey(key?: NewKey): Promise<KeyView>;
  revokeKey(id: number): Promise<KeyView>;

  timing(): Promise<TimingView>;
  setTiming(change: TimingChange): Promise<TimingView>;

  generations(query?: GenerationsQuery): Promise<AdminGenerationView[]>;
  generation(id: string): Promise<AdminGenerationView>;
  complete(id: string): Promise<AdminGenerationView>;
  fail(id: string, failure?: Failure): Promise<AdminGenerationView>;
  /** Refunds a completed or failed generation: what is left (default) or `amount`. Twice in full is `already_refunded`. */
  refund(id: string, amount?: number): Promise<{ generation: AdminGenerationView; refunded: number }>;
  /** Timeline on the emulator clock, next move, ledger entries, output links with their state, the creating request. */
  detail(id: string): Promise<GenerationDetail>;
  /** Every link handed out so far answers 403 url_expired; the next read signs fresh ones. */
  expireLinks(id: string): Promise<GenerationDetail>;
  ledger(query?: { account_id?: string; generation_id?: string }): Promise<LedgerEntryView[]>;
  /** Advances the clock transition by transition until the generation is in `target`; throws `unreachable_state` otherwise. */
  waitFor(id: string, target: WaitTarget, options?: WaitOptions): Promise<AdminGenerationView>;

  faults: {
    add(rule: FaultRuleInput): Promise<FaultView>;
    list(): Promise<FaultView[]>;
    remove(id: string): Promise<FaultView[]>;
    clear(): Promise<FaultView[]>;
    enable(id: string): Promise<FaultView>;
    disable(id: string): Promise<FaultView>;
  };
  scenario: {
    /** A name in fixtures/scenarios/, a file path, or a scenario object. Replaces the active scenario. */
    load(scenario: string | ScenarioInput): Promise<ScenarioProgress>;
    progress(): Promise<ScenarioProgress | null>;
    unload(): Promise<null>;
    available(): Promise<string[]>;
  };

  journal(query?: JournalQuery): Promise<JournalEntryView[]>;
  /** One journal entry with its request and response bodies (each cut at 4 KB). */
  journalEntry(id: number): Promise<JournalEntryDetailView>;
  clearJournal(): Promise<{ ok: true }>;
  /** What the console reads on each refresh: clock, wallets, rules, scenario, a page of generations, journal, upcoming. */
  summary(query?: SummaryQuery): Promise<Summary>;
  /** Models, failure codes, fault actions, prompt marker examples and scenarios with their steps and rules. */
  catalogue(): Promise<CatalogueView>;

  /** Back to the seeded state (and the start-up scenario, if any). Safe to pass directly: `afterEach(control.reset)`. */
  reset(): Promise<void>;
  exportState(): Promise<EmulatorState>;
  importState(state: EmulatorState): Promise<void>;
  /** Base URL for output links in control answers; startEmulator sets it to the listening URL (default: relative links). */
  setBaseUrl(url: string | undefined): void;
}

/**
 * `deps()` gives the current deps; `setBaseUrl` changes the base URL they carry. Each call runs the operation's handler,
 * then `commit` writes its change to the store of record before the promise settles, as an answer over HTTP is (a
 * full disk rejects it with storage_full, the change rolled back).
 */
export function createControl(
  deps: () => ControlDeps,
  setBaseUrl: (url: string | undefined) => void,
  commit: () => void = () => undefined,
): Control {
  const operations: Record<string, AnyOperation> = CONTROL_OPERATIONS;
  const methods: Omit<Control, 'setBaseUrl'> = deriveClient(async (id, input) => {
    const { params = {}, query, body } = input as Partial<HandlerInput<string>>;
    const result = await operations[id].handle(deps(), { params, query, body });
    commit();
    return result;
  });
  return { ...methods, setBaseUrl };
}
