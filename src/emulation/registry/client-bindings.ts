// Each documented control-client method as a call of one registry operation: what it sends and what it gives back.
// No value import reaches Node here: the console's browser bundle (console/browser-client.ts) derives its client too.
import type { FaultRuleInput } from '../faults/fault-schema.js';
import type { ScenarioInput } from '../scenarios/scenario-schema.js';
import type { SandboxInput } from '../sandboxes/sandbox-schema.js';
import type { EmulatorState } from '../state/emulator-state.js';
import type { AnswerOf, CallInput } from './operation.js';
import type { ControlOperations, OperationId } from './registry.js';

type Input<K extends OperationId> = CallInput<ControlOperations[K]>;
type Answer<K extends OperationId> = AnswerOf<ControlOperations[K]>;
/** An operation's body or query as a caller writes it: a client method's argument. */
type Body<K extends OperationId> = NonNullable<Input<K>['body']>;
type Query<K extends OperationId> = NonNullable<Input<K>['query']>;
type Wait = Body<'waitForGeneration'>;
/** `since` as ISO 8601, ms since the epoch or a Date, on the emulator clock. */
type JournalQuery = Omit<Query<'journal'>, 'since'> & { since?: string | number | Date };

/** What a binding may use beside its arguments. */
export interface ClientContext {
  /** Sends one operation: in-process it runs the handler, remotely it is an HTTP request. */
  invoke<K extends OperationId>(id: K, input: Input<K>): Promise<Answer<K>>;
  /** The body that loads `scenario`: a name, the object, or (in Node) a file read on the client's side. */
  scenarioBody(scenario: string | ScenarioInput): { name: string } | { scenario: ScenarioInput };
}

export interface Binding<K extends OperationId, A extends unknown[], R> {
  op: K;
  /** May call another operation first (the seeded account for a balance change). */
  input(client: ClientContext, ...args: A): Input<K> | Promise<Input<K>>;
  result(answer: Answer<K>): R;
}

const bind = <K extends OperationId, A extends unknown[] = [], R = Answer<K>>(
  op: K,
  input: (client: ClientContext, ...args: A) => Input<K> | Promise<Input<K>> = () => ({}) as Input<K>,
  result: (answer: Answer<K>) => R = (answer) => answer as unknown as R,
): Binding<K, A, R> => ({ op, input, result });

const none = () => ({});
const done = (): void => undefined;
const byId = (_: ClientContext, id: string) => ({ params: { id } });
const withQuery = <K extends OperationId>(_: ClientContext, query?: Query<K>) => ({ query });
/** The one member of an envelope a method gives back: `pick('generation')` for `{ generation }`. */
const pick =
  <N extends string>(name: N) =>
  <T extends Record<N, unknown>>(answer: T): T[N] =>
    answer[name];

/** Without an account id, a balance change is the seeded account's. */
const accountOr = async ({ invoke }: ClientContext, accountId: string | undefined) =>
  accountId ?? (await invoke('seededKey', {})).account_id;

// The comments on the members are the client's documentation: editors show them on each `control` method.
export const CLIENT_BINDINGS = {
  /** The emulator clock's reading. */
  now: bind('getClock', none, (clock) => new Date(clock.now)),
  clock: bind('getClock'),
  /** Moves the clock by "10m", "30s", "250ms"... or ms, running due transitions in order and waiting for their renders. */
  advance: bind('advanceClock', (_, by: string | number) => ({ body: { by } })),
  /** Moves the clock exactly to the soonest scheduled transition; `nothing_scheduled` when there is none. */
  advanceToNext: bind('advanceToNext'),
  freeze: bind('freezeClock'),
  unfreeze: bind('unfreezeClock'),

  accounts: bind('listAccounts', none, pick('accounts')),
  /** Sets the balance (default: the seeded account); written to the ledger as a funding entry for the difference. */
  setBalance: bind('changeBalance', async (client, balance: number, accountId?: string) => ({
    params: { id: await accountOr(client, accountId) },
    body: { set: balance },
  })),
  /** Adds credits (negative takes away). */
  topUp: bind('changeBalance', async (client, amount: number, accountId?: string) => ({
    params: { id: await accountOr(client, accountId) },
    body: { add: amount },
  })),
  /** The seeded API key (`--api-key`, default DEFAULT_API_KEY): the one startEmulator() returns as `apiKey`. */
  apiKey: bind('seededKey', none, pick('api_key')),
  keys: bind('listKeys', none, pick('keys')),
  createKey: bind('createKey', (_, key?: Body<'createKey'>) => ({ body: key ?? {} }), pick('key')),
  revokeKey: bind('revokeKey', (_, id: number) => ({ params: { id: String(id) } }), pick('key')),
  /** Sets the key's daily credit ceiling, checked from its next request on; `null` removes it. */
  setKeyDailyLimit: bind(
    'setKeyDailyLimit',
    (_, id: number, limit: number | null) => ({ params: { id: String(id) }, body: { daily_credit_limit: limit } }),
    pick('key'),
  ),

  timing: bind('getTiming'),
  setTiming: bind('setTiming', (_, change: Body<'setTiming'>) => ({ body: change })),

  generations: bind('adminListGenerations', withQuery<'adminListGenerations'>, pick('generations')),
  generation: bind('adminGetGeneration', byId, pick('generation')),
  complete: bind('completeGeneration', byId, pick('generation')),
  fail: bind(
    'failGeneration',
    (_, id: string, failure?: Body<'failGeneration'>) => ({ params: { id }, body: failure ?? {} }),
    pick('generation'),
  ),
  /** Refunds a completed or failed generation: what is left (default) or `amount`. Twice in full is `already_refunded`. */
  refund: bind('refundGeneration', (_, id: string, amount?: number) => ({
    params: { id },
    body: amount === undefined ? {} : { amount },
  })),
  /** Timeline on the emulator clock, next move, ledger entries, output links with their state, the creating request. */
  detail: bind('generationDetail', byId),
  /** Every link handed out so far answers 403 url_expired; the next read signs fresh ones. */
  expireLinks: bind('expireLinks', byId),
  ledger: bind('ledger', withQuery<'ledger'>, pick('entries')),
  /** Advances the clock transition by transition until the generation is in `target`; throws `unreachable_state` otherwise. */
  waitFor: bind(
    'waitForGeneration',
    (_, id: string, target: Wait['target'], options: Omit<Wait, 'target'> = {}) => ({
      params: { id },
      body: { target, ...options },
    }),
    pick('generation'),
  ),

  faults: {
    add: bind('addFault', (_, rule: FaultRuleInput) => ({ body: rule }), pick('fault')),
    list: bind('listFaults', none, pick('faults')),
    remove: bind('deleteFault', byId, pick('faults')),
    clear: bind('clearFaults', none, pick('faults')),
    enable: bind('updateFault', (_, id: string) => ({ params: { id }, body: { enabled: true } }), pick('fault')),
    disable: bind('updateFault', (_, id: string) => ({ params: { id }, body: { enabled: false } }), pick('fault')),
  },
  scenario: {
    /**
     * A name in fixtures/scenarios/, a file path, or a scenario object. Replaces the active scenario. A file is read
     * by the client and sent inline: the emulator never opens a path it is sent.
     */
    load: bind(
      'loadScenario',
      (client, scenario: string | ScenarioInput) => ({ body: client.scenarioBody(scenario) }),
      pick('active'),
    ),
    progress: bind('activeScenario', none, pick('active')),
    unload: bind('unloadScenario', none, pick('active')),
    available: bind('listScenarios', none, pick('available')),
  },

  journal: bind(
    'journal',
    (_, query: JournalQuery = {}) => ({
      query: { ...query, since: query.since instanceof Date ? query.since.toISOString() : query.since },
    }),
    pick('entries'),
  ),
  /** One journal entry with its request and response bodies (each cut at 4 KB). */
  journalEntry: bind('journalEntry', (_, id: number) => ({ params: { id: String(id) } }), pick('entry')),
  clearJournal: bind('clearJournal'),
  /** What the console reads on each refresh: clock, wallets, rules, scenario, a page of generations, journal, upcoming. */
  summary: bind('summary', withQuery<'summary'>),
  /** Models, failure codes, fault actions, prompt marker examples and scenarios with their steps and rules. */
  catalogue: bind('catalogue'),

  // Documented on Control, which gives back a SandboxHandle rather than the answer.
  createSandbox: bind('createSandbox', (_, spec?: SandboxInput) => ({ body: spec ?? {} })),
  /** The sandboxes alive now (without their tokens). */
  sandboxes: bind('listSandboxes', none, pick('data')),
  sandbox: bind('getSandbox', byId),
  /** A sandbox back to its creation state (its seed, balance, timing and API key kept). */
  resetSandbox: bind('resetSandbox', byId, done),
  /** Deletes a sandbox: its API key answers 401 from now on. */
  deleteSandbox: bind('deleteSandbox', byId, done),

  /** Back to the seeded state (and the start-up scenario, if any). Safe to pass directly: `afterEach(control.reset)`. */
  reset: bind('reset', none, done),
  exportState: bind('exportState'),
  // An export's TypeScript type names domain records; the import checks it against the state schema.
  importState: bind(
    'importState',
    (_, state: EmulatorState) => ({ body: state as unknown as Input<'importState'>['body'] }),
    done,
  ),
};
