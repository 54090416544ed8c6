// The typed in-process control client: the same operations as the /_emulator/* routes, for tests. Every method returns a promise.
import type * as z from 'zod';
import type { FaultRuleInput } from './faults/fault-schema.js';
import type { ScenarioInput } from './scenarios/scenario-schema.js';
import { changeBalance, createKey, listAccounts, listKeys, revokeKey, seededKey } from './admin/account-operations.js';
import {
  advanceClock,
  advanceToNext,
  freezeClock,
  readClock,
  unfreezeClock,
  type AdvanceResult,
} from './clock/clock-operations.js';
import type { ControlDeps } from './plane-state.js';
import { addFault, clearFaults, listFaults, removeFault, updateFault } from './faults/fault-operations.js';
import {
  completeGeneration,
  failGeneration,
  getGeneration,
  ledgerEntries,
  listGenerations,
  refundGeneration,
} from './generations/generation-operations.js';
import type { failInput, generationsQuery, newKeyInput, summaryQuery, timingInput } from './inputs.js';
import { expireLinks, generationDetail, type GenerationDetail } from './generations/generation-detail.js';
import { clearJournal, readJournal, readJournalEntry, type JournalQuery } from './journal/journal-operations.js';
import { availableScenarios, loadScenario, scenarioProgress, unloadScenario } from './scenarios/scenario-operations.js';
import { exportState, importState, type EmulatorState } from './state/emulator-state.js';
import { catalogueView, summary, type CatalogueView, type Summary } from './summary.js';
import { readTiming, setTiming } from './clock/timing-operations.js';
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
import { waitFor, type WaitOptions, type WaitTarget } from './clock/wait-for.js';

export type NewKey = z.input<typeof newKeyInput>;
export type TimingChange = z.input<typeof timingInput>;
export type Failure = z.input<typeof failInput>;
export type GenerationsQuery = z.input<typeof generationsQuery>;
export type SummaryQuery = z.input<typeof summaryQuery>;
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

/** Each operation, once its promise settles, commits what it changed: the same promise as an answer over HTTP. */
function committedAfter<T extends object>(operations: T, commit: () => void): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(operations))
    wrapped[name] =
      typeof value === 'function' && name !== 'setBaseUrl'
        ? async (...args: unknown[]) => {
            const result = await value(...args);
            commit();
            return result;
          }
        : value && typeof value === 'object'
          ? committedAfter(value as object, commit)
          : value;
  return wrapped as T;
}

/**
 * `deps()` gives the current deps; `setBaseUrl` changes the base URL they carry; `commit` writes a change to the store
 * of record before the operation returns (a full disk rejects it with storage_full, the change rolled back).
 */
export function createControl(
  deps: () => ControlDeps,
  setBaseUrl: (url: string | undefined) => void,
  commit: () => void = () => undefined,
): Control {
  return committedAfter(operations(deps, setBaseUrl), commit);
}

function operations(deps: () => ControlDeps, setBaseUrl: (url: string | undefined) => void): Control {
  const d = deps;
  return {
    now: async () => new Date(d().runtime.context().clock.now()),
    clock: async () => readClock(d()),
    advance: (by) => advanceClock(d(), by),
    advanceToNext: () => advanceToNext(d()),
    freeze: async () => freezeClock(d()),
    unfreeze: async () => unfreezeClock(d()),
    accounts: async () => listAccounts(d()),
    setBalance: async (balance, accountId) => changeBalance(d(), accountId ?? d().runtime.accountId, { set: balance }),
    topUp: async (amount, accountId) => changeBalance(d(), accountId ?? d().runtime.accountId, { add: amount }),
    apiKey: async () => seededKey(d()).api_key,
    keys: async () => listKeys(d()),
    createKey: async (key) => createKey(d(), key),
    revokeKey: async (id) => revokeKey(d(), id),
    timing: async () => readTiming(d()),
    setTiming: async (change) => setTiming(d(), change),
    generations: async (query) => listGenerations(d(), query),
    generation: async (id) => getGeneration(d(), id),
    complete: (id) => completeGeneration(d(), id),
    fail: async (id, failure) => failGeneration(d(), id, failure),
    refund: async (id, amount) => refundGeneration(d(), id, amount === undefined ? {} : { amount }),
    detail: async (id) => generationDetail(d(), id),
    expireLinks: async (id) => expireLinks(d(), id),
    ledger: async (query) => ledgerEntries(d(), query),
    waitFor: (id, target, options) => waitFor(d(), id, target, options),
    faults: {
      add: async (rule) => addFault(d(), rule),
      list: async () => listFaults(d()),
      remove: async (id) => removeFault(d(), id),
      clear: async () => clearFaults(d()),
      enable: async (id) => updateFault(d(), id, { enabled: true }),
      disable: async (id) => updateFault(d(), id, { enabled: false }),
    },
    scenario: {
      load: async (scenario) => loadScenario(d(), scenario),
      progress: async () => scenarioProgress(d()),
      unload: async () => unloadScenario(d()),
      available: async () => availableScenarios(),
    },
    journal: async (query) => readJournal(d(), query),
    journalEntry: async (id) => readJournalEntry(d(), id),
    clearJournal: async () => clearJournal(d()),
    summary: async (query) => summary(d(), query),
    catalogue: async () => catalogueView(d()),
    reset: () => d().runtime.reset(),
    exportState: async () => exportState(d()),
    importState: (state) => importState(d(), state),
    setBaseUrl,
  };
}
