// The store of record at the door of each response: a change goes out after its commit, or as that commit's refusal.
import { type CodedError, DomainError } from '../domain/errors.js';
import { jsonAnswer } from '../http/answers.js';
import { answeredCode, statusFor } from '../http/error-statuses.js';
import { type Exchange, exchangeSlot, type ServiceResponse } from '../http/exchange.js';
import type { ExchangeHooks } from '../http/pipeline.js';
import { groupCommit, type Refusal } from './group-commit.js';
import { STORE_ERROR_STATUSES } from './store-errors.js';

export interface ResponseGateDeps {
  /** Commits what changed since the last commit; throws the refusal (507...) when the disk refuses it. */
  commit(): void;
  /** Bumped when a failed commit starts restoring memory from the store and when it is done. */
  epoch(): number;
  /** A failed commit's reload is running: nothing is written meanwhile. */
  restoring(): boolean;
  closed(): boolean;
  /** True when a commit now would write nothing. */
  nothingToWrite(): boolean;
  /** Runs the group's commit after this turn's I/O callbacks (setImmediate under Node). */
  defer(settle: () => void): void;
  log: (line: string) => void;
  /** The emulator's `errorStatuses` and `errorCodes` options: a refusal answered here honours them as the error mapper does. */
  errorStatuses?: Record<string, number>;
  errorCodes?: Record<string, string>;
}

export interface ResponseGate extends Required<Pick<ExchangeHooks, 'before' | 'gate'>> {
  /** Responses still waiting get their commit's verdict now (a close). */
  settle(): void;
}

/** The epoch at which an exchange that may change state began; undefined for one that cannot. */
const started = exchangeSlot<number>('store epoch');

export function createResponseGate(deps: ResponseGateDeps): ResponseGate {
  const { commit, epoch, restoring } = deps;

  // Answered here, not by the error mapper (the answer is already on its way out): the same tables apply.
  const statuses: Record<string, number> = { ...STORE_ERROR_STATUSES, ...deps.errorStatuses };
  const codes = deps.errorCodes ?? {};
  const refused = (error: CodedError): ServiceResponse =>
    jsonAnswer(statusFor(error.code, statuses), {
      error: { code: answeredCode(error.code, codes), message: error.message },
    });

  /** The answer of a group's member: undefined when it stands, else the refusal (a read shares its group's). */
  const verdict = (x: Exchange, refusal: Refusal | undefined): ServiceResponse | undefined => {
    const began = started.get(x);
    started.set(x, undefined);
    if (refusal) return refused(refusal);
    if (began === undefined || (!restoring() && began === epoch())) return undefined;
    return refused(
      new DomainError(
        'storage_full',
        'The change could not be stored: a write to the state file failed meanwhile and its state was reloaded. Nothing was changed or charged; retry the request.',
      ),
    );
  };

  // While a failed commit's reload runs nothing is written: the members are refused by their epoch (verdict).
  const group = groupCommit<Exchange, ServiceResponse>({
    commit,
    mayWrite: () => !deps.closed() && !restoring(),
    verdict,
    defer: deps.defer,
    log: deps.log,
  });

  return {
    before(x) {
      if (x.dispatch.mutates) started.set(x, epoch());
      return undefined;
    },
    gate(x) {
      if (deps.closed()) return undefined;
      if (started.get(x) === undefined) {
        // A read answered while changes wait for their commit may show them: it goes out with them, or as their 507.
        return group.size === 0 ? undefined : group.join(x);
      }
      // Nothing to write and no group waiting (an estimate, a refusal): out at once, with no commit to wait for.
      if (group.size === 0 && deps.nothingToWrite()) return verdict(x, undefined);
      return group.join(x);
    },
    settle() {
      if (group.size > 0) group.settle();
    },
  };
}
