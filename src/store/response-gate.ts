// The store of record at the door of each response: a change goes out after its commit, or as that commit's refusal.
import { type CodedError, DomainError } from '../domain/errors.js';
import { jsonAnswer } from '../http/answers.js';
import { answeredCode, statusFor } from '../http/error-statuses.js';
import { type Exchange, exchangeSlot, type ServiceResponse } from '../http/exchange.js';
import type { ExchangeHooks } from '../http/pipeline.js';
import { groupCommit, type Refusal } from './group-commit.js';
import { STORE_ERROR_STATUSES } from './store-errors.js';

/** What the gate asks of one world's part of the store. */
export interface GateWorld {
  /** Bumped when a failed commit starts restoring memory from the store and when it is done. */
  readonly epoch: number;
  /** A failed commit's reload is running: nothing of this world is written meanwhile. */
  readonly restoring: boolean;
  /** Closed or dropped: its answers go out as they are. */
  readonly closed: boolean;
  /** True when a commit now would write nothing for it. */
  nothingToWrite(): boolean;
}

export interface ResponseGateDeps<W extends GateWorld> {
  /**
   * Commits what these worlds changed since their last commit, in one transaction; throws the refusal (507...) when
   * the disk refuses it; answers the worlds refused on their own (a kept state not loaded yet).
   */
  commit(worlds: readonly W[]): ReadonlyMap<W, CodedError>;
  /** The whole store is closed. */
  closed(): boolean;
  /** Runs the group's commit after this turn's I/O callbacks (setImmediate under Node). */
  defer(settle: () => void): void;
  log: (line: string) => void;
  /** The emulator's `errorStatuses` and `errorCodes` options: a refusal answered here honours them as the error mapper does. */
  errorStatuses?: Record<string, number>;
  errorCodes?: Record<string, string>;
}

export interface ResponseGate<W extends GateWorld> {
  /** A world's hooks: its exchanges join the one group commit of every world. */
  hooks(world: W): Required<Pick<ExchangeHooks, 'before' | 'gate'>>;
  /** Responses still waiting get their commit's verdict now (a close). */
  settle(): void;
}

/** The world of an exchange that joined a group, and the epoch at which it began when it may change state. */
interface Joined<W> {
  world: W;
  epoch: number | undefined;
}

/**
 * One gate for every world of a database: the answers of any worlds that end in the same turn share one group, whose
 * commit writes each joined world's changes in one transaction.
 */
export function createResponseGate<W extends GateWorld>(deps: ResponseGateDeps<W>): ResponseGate<W> {
  /** The epoch at which an exchange that may change state began, and its world; undefined for one that cannot. */
  const started = exchangeSlot<Joined<W>>('store epoch');
  /** The worlds whose exchanges wait for the next group commit. */
  const joined = new Set<W>();

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
    if (began?.epoch === undefined || (!began.world.restoring && began.epoch === began.world.epoch)) return undefined;
    return refused(
      new DomainError(
        'storage_full',
        'The change could not be stored: a write to the state file failed meanwhile and its state was reloaded. Nothing was changed or charged; retry the request.',
      ),
    );
  };

  // A world whose failed commit's reload runs writes nothing: its members are refused by their epoch (verdict).
  const group = groupCommit<Exchange, ServiceResponse>({
    commit() {
      const worlds = [...joined].filter((world) => !world.restoring && !world.closed);
      joined.clear();
      const refusals = deps.commit(worlds);
      return refusals.size === 0 ? undefined : (x) => refusals.get(started.get(x)?.world as W);
    },
    mayWrite: () => !deps.closed(),
    verdict,
    defer: deps.defer,
    log: deps.log,
  });

  return {
    hooks: (world) => ({
      before(x) {
        if (x.dispatch.mutates) started.set(x, { world, epoch: world.epoch });
        return undefined;
      },
      gate(x) {
        if (deps.closed() || world.closed) return undefined;
        if (started.get(x) === undefined) {
          // A read answered while changes wait for their commit may show them: it goes out with them, or as their 507.
          if (group.size === 0) return undefined;
          started.set(x, { world, epoch: undefined });
        } else if (group.size === 0 && world.nothingToWrite()) {
          // Nothing to write and no group waiting (an estimate, a refusal): out at once, with no commit to wait for.
          return verdict(x, undefined);
        }
        joined.add(world);
        return group.join(x);
      },
    }),
    settle() {
      if (group.size > 0) group.settle();
    },
  };
}
