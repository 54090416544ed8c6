// Each documented control-client method as a call of one registry operation: what it sends and what it gives back.
import type { FaultRuleInput } from '../faults/fault-schema.js';
import type { JournalQuery } from '../journal/journal-api.js';
import { scenarioLoadBody } from '../scenarios/scenario-files.js';
import type { ScenarioInput } from '../scenarios/scenario-schema.js';
import type { EmulatorState } from '../state/emulator-state.js';
import type { WaitOptions, WaitTarget } from '../clock/wait-for.js';
import type { Failure, GenerationsQuery, NewKey, SummaryQuery, TimingChange } from '../inputs.js';
import type { AnswerOf, CallInput } from './operation.js';
import type { ControlOperations, OperationId } from './registry.js';

type Input<K extends OperationId> = CallInput<ControlOperations[K]>;
type Answer<K extends OperationId> = AnswerOf<ControlOperations[K]>;

/** Sends one operation: in-process it runs the handler, remotely it is an HTTP request. */
export type Invoke = <K extends OperationId>(id: K, input: Input<K>) => Promise<Answer<K>>;

export interface Binding<K extends OperationId, A extends unknown[], R> {
  op: K;
  /** May call another operation first (the seeded account for a balance change). */
  input(invoke: Invoke, ...args: A): Input<K> | Promise<Input<K>>;
  result(answer: Answer<K>): R;
}

const bind = <K extends OperationId, A extends unknown[] = [], R = Answer<K>>(
  op: K,
  input: (invoke: Invoke, ...args: A) => Input<K> | Promise<Input<K>> = () => ({}) as Input<K>,
  result: (answer: Answer<K>) => R = (answer) => answer as unknown as R,
): Binding<K, A, R> => ({ op, input, result });

const none = () => ({});
const done = () => undefined;
const byId = (_: Invoke, id: string) => ({ params: { id } });

/** Without an account id, a balance change is the seeded account's. */
const accountOr = async (invoke: Invoke, accountId: string | undefined) =>
  accountId ?? (await invoke('seededKey', {})).account_id;

export const CLIENT_BINDINGS = {
  now: bind('getClock', none, (clock) => new Date(clock.now)),
  clock: bind('getClock'),
  advance: bind('advanceClock', (_, by: string | number) => ({ body: { by } })),
  advanceToNext: bind('advanceToNext'),
  freeze: bind('freezeClock'),
  unfreeze: bind('unfreezeClock'),
  accounts: bind('listAccounts', none, (answer) => answer.accounts),
  setBalance: bind('changeBalance', async (invoke, balance: number, accountId?: string) => ({
    params: { id: await accountOr(invoke, accountId) },
    body: { set: balance },
  })),
  topUp: bind('changeBalance', async (invoke, amount: number, accountId?: string) => ({
    params: { id: await accountOr(invoke, accountId) },
    body: { add: amount },
  })),
  apiKey: bind('seededKey', none, (answer) => answer.api_key),
  keys: bind('listKeys', none, (answer) => answer.keys),
  createKey: bind(
    'createKey',
    (_, key?: NewKey) => ({ body: key ?? {} }),
    (answer) => answer.key,
  ),
  revokeKey: bind(
    'revokeKey',
    (_, id: number) => ({ params: { id: String(id) } }),
    (answer) => answer.key,
  ),
  timing: bind('getTiming'),
  setTiming: bind('setTiming', (_, change: TimingChange) => ({ body: change })),
  generations: bind(
    'adminListGenerations',
    (_, query?: GenerationsQuery) => ({ query }),
    (answer) => answer.generations,
  ),
  generation: bind('adminGetGeneration', byId, (answer) => answer.generation),
  complete: bind('completeGeneration', byId, (answer) => answer.generation),
  fail: bind(
    'failGeneration',
    (_, id: string, failure?: Failure) => ({ params: { id }, body: failure ?? {} }),
    (answer) => answer.generation,
  ),
  refund: bind('refundGeneration', (_, id: string, amount?: number) => ({
    params: { id },
    body: amount === undefined ? {} : { amount },
  })),
  detail: bind('generationDetail', byId),
  expireLinks: bind('expireLinks', byId),
  ledger: bind(
    'ledger',
    (_, query?: { account_id?: string; generation_id?: string }) => ({ query }),
    (answer) => answer.entries,
  ),
  waitFor: bind(
    'waitForGeneration',
    (_, id: string, target: WaitTarget, options: WaitOptions = {}) => ({
      params: { id },
      body: { target, ...options },
    }),
    (answer) => answer.generation,
  ),
  faults: {
    add: bind(
      'addFault',
      (_, rule: FaultRuleInput) => ({ body: rule }),
      (answer) => answer.fault,
    ),
    list: bind('listFaults', none, (answer) => answer.faults),
    remove: bind('deleteFault', byId, (answer) => answer.faults),
    clear: bind('clearFaults', none, (answer) => answer.faults),
    enable: bind(
      'updateFault',
      (_, id: string) => ({ params: { id }, body: { enabled: true } }),
      (a) => a.fault,
    ),
    disable: bind(
      'updateFault',
      (_, id: string) => ({ params: { id }, body: { enabled: false } }),
      (a) => a.fault,
    ),
  },
  scenario: {
    /** A file is read by the client and sent inline: the emulator never opens a path it is sent. */
    load: bind(
      'loadScenario',
      (_, scenario: string | ScenarioInput) => ({ body: scenarioLoadBody(scenario) }),
      (answer) => answer.active,
    ),
    progress: bind('activeScenario', none, (answer) => answer.active),
    unload: bind('unloadScenario', none, (answer) => answer.active),
    available: bind('listScenarios', none, (answer) => answer.available),
  },
  journal: bind(
    'journal',
    (_, query: JournalQuery = {}) => ({
      query: { ...query, since: query.since instanceof Date ? query.since.toISOString() : query.since },
    }),
    (answer) => answer.entries,
  ),
  journalEntry: bind(
    'journalEntry',
    (_, id: number) => ({ params: { id: String(id) } }),
    (answer) => answer.entry,
  ),
  clearJournal: bind('clearJournal'),
  summary: bind('summary', (_, query?: SummaryQuery) => ({ query })),
  catalogue: bind('catalogue'),
  reset: bind('reset', none, done),
  exportState: bind('exportState'),
  // An export's TypeScript type names domain records; the import checks it against the state schema.
  importState: bind(
    'importState',
    (_, state: EmulatorState) => ({ body: state as unknown as Input<'importState'>['body'] }),
    done,
  ),
};

// biome-ignore lint/suspicious/noExplicitAny: any binding
type AnyBinding = Binding<any, any[], unknown>;

/** The client a set of bindings makes: each method sends its operation and gives back what its binding takes. */
export type DerivedClient<B> = {
  [M in keyof B]: B[M] extends Binding<OperationId, infer A, infer R>
    ? (...args: A) => Promise<R>
    : DerivedClient<B[M]>;
};

const isBinding = (value: object): value is AnyBinding => 'op' in value;

/**
 * Both clients are this, over their own `invoke`. `refuse` turns what failed before anything was sent (a scenario
 * file that cannot be read) into the client's own error.
 */
export function deriveClient(
  invoke: Invoke,
  refuse: (error: unknown) => unknown = (error) => error,
): DerivedClient<typeof CLIENT_BINDINGS> {
  const derive = (bindings: object): object =>
    Object.fromEntries(
      Object.entries(bindings).map(([name, value]: [string, AnyBinding | object]) => [
        name,
        isBinding(value)
          ? async (...args: unknown[]) => {
              let input: unknown;
              try {
                input = await value.input(invoke, ...args);
              } catch (error) {
                throw refuse(error);
              }
              return value.result(await invoke(value.op, input as never));
            }
          : derive(value),
      ]),
    );
  return derive(CLIENT_BINDINGS) as DerivedClient<typeof CLIENT_BINDINGS>;
}
