// A dry run of a scenario against the state as it stands: every refusal its steps and rules could meet, before anything runs.
import { checkNewKeyId, checkNewSecret, KEY_ID_SCOPE, MAX_ACCOUNTS, MAX_KEYS } from '../../domain/accounts.js';
import { CodedError, DomainError } from '../../domain/errors.js';
import { describeProblems, type FieldProblem, nestProblems } from '../../domain/zod-issues.js';
import { checkTimingModels, clockRangeProblem } from '../clock/clock-operations.js';
import { PlaneError } from '../error-codes.js';
import { faultLimitReached, MAX_FAULT_RULES } from '../faults/fault-rule-ids.js';
import { type FaultRule, parseFaultRule } from '../faults/fault-store.js';
import { thousands } from '../../domain/thousands.js';
// The bodies are parsed with the schemas the operations the steps run declare (openapi/components.ts).
import { balanceInput, newKeyInput, parseInput, timingInput } from '../inputs.js';
import { accountExists, balanceAfter, refundable } from '../admin/account-operations.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import type { ScenarioDefinition, ScenarioStep } from './scenario-schema.js';

type Step<Op extends ScenarioStep['op']> = Extract<ScenarioStep, { op: Op }>;

/** The account a balance step acts on: its own, or the seeded one. */
export const stepAccount = (deps: ControlDeps, step: Step<'set_balance' | 'top_up'>) =>
  step.account_id ?? deps.runtime.accountId;

/** The body a balance step sends to the balance operation. */
export const balanceChange = (step: Step<'set_balance' | 'top_up'>) =>
  step.op === 'set_balance' ? { set: step.balance } : { add: step.amount };

/** The body a step sends to its control operation: the step without its `op`. */
export function withoutOp<S extends ScenarioStep>(step: S): Omit<S, 'op'> {
  const { op: _op, ...body } = step;
  return body;
}

/**
 * What the steps checked so far would have left, as far as a later step's checks read it: the accounts, balances,
 * key secrets and ids they create or change, and where the clock stands. Nothing is written and no id is taken.
 */
class DryRun {
  private readonly createdAccounts = new Set<string>();
  private readonly balances = new Map<string, number>();
  private readonly createdKeyIds = new Set<number>();
  private secrets?: Set<string>;
  private accountCount?: number;
  private keyCount?: number;
  private nextKeyId: number;
  clockAt: number;

  constructor(private readonly deps: ControlDeps) {
    const ctx = contextOf(deps);
    this.nextKeyId = ctx.ids.peekInt(KEY_ID_SCOPE);
    this.clockAt = ctx.clock.now();
  }

  private get ctx() {
    return contextOf(this.deps);
  }

  knownAccount(id: string) {
    if (!this.createdAccounts.has(id) && !this.ctx.accounts.account(id))
      throw new DomainError(
        'account_not_found',
        `Account '${id}' does not exist (nor does an earlier step create it).`,
      );
  }

  balance(id: string): number {
    return this.balances.get(id) ?? (this.createdAccounts.has(id) ? 0 : this.ctx.ledger.balance(id));
  }

  changeBalance(id: string, change: { set: number } | { add: number }) {
    this.knownAccount(id);
    const after = balanceAfter(
      this.balance(id),
      change,
      'Use { "op": "set_balance", "balance": 0 } to empty the wallet.',
      this.createdAccounts.has(id) ? 0 : refundable(this.deps, id),
    );
    this.balances.set(id, after);
  }

  createAccount(step: Step<'create_account'>) {
    if (this.createdAccounts.has(step.id) || this.ctx.accounts.account(step.id)) throw accountExists(step.id);
    this.accountCount ??= this.ctx.accounts.listAccounts().length;
    if (this.accountCount >= MAX_ACCOUNTS)
      throw new DomainError('limit_reached', `This step would pass ${thousands(MAX_ACCOUNTS)} accounts.`);
    this.accountCount += 1;
    this.createdAccounts.add(step.id);
    this.balances.set(step.id, step.balance ?? 0);
  }

  createKey(step: Step<'create_key'>) {
    const body = parseInput(newKeyInput, withoutOp(step), 'new key');
    this.knownAccount(body.account_id ?? this.deps.runtime.accountId);
    if (body.model_scope && !this.ctx.catalogue.get(body.model_scope))
      throw new PlaneError('invalid_control_request', `model_scope: no model '${body.model_scope}' in the catalogue.`);
    checkNewKeyId(this.nextKeyId);
    const keys = this.ctx.accounts.listKeys();
    this.secrets ??= new Set(keys.map((k) => k.secret));
    this.keyCount ??= keys.length;
    if (body.secret !== undefined) {
      checkNewSecret(body.secret, this.secrets.has(body.secret));
      this.secrets.add(body.secret);
    }
    if (this.keyCount >= MAX_KEYS)
      throw new DomainError('limit_reached', `This step would pass ${thousands(MAX_KEYS)} API keys.`);
    this.keyCount += 1;
    // Ids are handed out in sequence, and after this dry run no key creation can be refused, so none is skipped.
    this.createdKeyIds.add(this.nextKeyId++);
  }

  revokeKey(id: number) {
    if (!this.createdKeyIds.has(id) && !this.ctx.accounts.key(id))
      throw new DomainError('key_not_found', `API key ${id} does not exist (nor does an earlier step create it).`);
  }

  moveClock(to: number) {
    const problem = clockRangeProblem(to);
    if (problem !== undefined) throw new PlaneError('invalid_scenario', problem);
    this.clockAt = to;
  }
}

/** Checks one step against what the earlier ones would have left; the switch is exhaustive, so a new op needs a check. */
function checkStep(run: DryRun, deps: ControlDeps, step: ScenarioStep) {
  switch (step.op) {
    case 'set_balance':
    case 'top_up':
      return run.changeBalance(
        stepAccount(deps, step),
        parseInput(balanceInput, balanceChange(step), 'balance change'),
      );
    case 'create_account':
      return run.createAccount(step);
    case 'create_key':
      return run.createKey(step);
    case 'revoke_key':
      return run.revokeKey(step.id);
    case 'set_timing':
      return checkTimingModels(deps, parseInput(timingInput, withoutOp(step), 'timing'));
    case 'freeze_clock':
    case 'unfreeze_clock':
      return;
    case 'set_clock':
      return run.moveClock(Date.parse(step.to));
    case 'advance_clock':
      return run.moveClock(run.clockAt + step.by);
    default:
      return step satisfies never;
  }
}

/** A step's refusal as the load's: the same code, the step named; a field problem becomes one of the scenario. */
function refusal(definition: ScenarioDefinition, i: number, error: CodedError): CodedError {
  const step = `steps[${i}]`;
  const inner = error.details?.problems as FieldProblem[] | undefined;
  if (error.code === 'invalid_scenario' || error.code === 'invalid_control_request' || inner) {
    const problems = inner ? nestProblems(step, inner) : [{ field: step, message: error.message }];
    const text = describeProblems(problems);
    return new PlaneError('invalid_scenario', `Scenario ${definition.name} is not valid: ${text}.`, { problems });
  }
  return new CodedError(
    error.code,
    `Scenario '${definition.name}' was not loaded and nothing changed: ${step} (${definition.steps[i].op}): ${error.message}`,
    error.details,
  );
}

/**
 * Throws what loading `definition` would be refused with, having changed nothing: each step checked in order against
 * the state its earlier steps would leave, then its rules against `staying` (the rules in force once the active
 * scenario's own are removed). A step that takes credits away is checked against the balance before any refund a
 * clock step of the same scenario might bring.
 */
export function preflightScenario(deps: ControlDeps, definition: ScenarioDefinition, staying: readonly FaultRule[]) {
  const run = new DryRun(deps);
  definition.steps.forEach((step, i) => {
    try {
      checkStep(run, deps, step);
    } catch (error) {
      throw error instanceof CodedError ? refusal(definition, i, error) : error;
    }
  });
  if (staying.length + definition.faults.length > MAX_FAULT_RULES)
    throw faultLimitReached(
      `Scenario '${definition.name}' (${definition.faults.length} rules, beside ${staying.length} already in force)`,
    );
  // The ids the store will generate are predicted as the key ids are: a given id may clash with one generated earlier.
  deps.state.faults.plannedIds(
    definition.faults.map((rule) => parseFaultRule(rule).id),
    staying.map((r) => r.id),
    (id, i) =>
      new PlaneError(
        'fault_exists',
        `Scenario '${definition.name}' was not loaded and nothing changed: faults[${i}] would have id '${id}', which a rule in force or an earlier rule of the scenario (id-less rules are given flt_000001, flt_000002, ...) already has; choose another id, or remove that rule first.`,
      ),
  );
}
