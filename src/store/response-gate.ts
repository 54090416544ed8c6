// The store of record at the door of each response: a change goes out after its commit, or as that commit's refusal.
import type { RequestHandler, Response } from 'express';
import { CodedError, DomainError } from '../domain/errors.js';
import { answeredCode, statusFor } from '../http/error-statuses.js';
import type { BeforeSend } from '../http/response-pipeline.js';
import { groupCommit, type Refusal } from './group-commit.js';
import { STORE_ERROR_STATUSES } from './store-errors.js';

const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

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
  log: (line: string) => void;
  /** The emulator's `errorStatuses` and `errorCodes` options: a refusal answered here honours them as the error handler does. */
  errorStatuses?: Record<string, number>;
  errorCodes?: Record<string, string>;
}

export interface ResponseGate {
  /** Notes when each request started, so one that a failed commit rolled back is not acknowledged. */
  middleware(): RequestHandler;
  /** See StoreOfRecord.gate. */
  gate: BeforeSend;
  /** Responses still waiting get their commit's verdict now (a close). */
  settle(): void;
}

export function createResponseGate(deps: ResponseGateDeps): ResponseGate {
  const { commit, epoch, restoring } = deps;

  /** The answer of a group's member: undefined when it stands, else the refusal's body (a read shares its group's). */
  const verdict = (res: Response, refusal: Refusal | undefined): string | undefined => {
    const started = res.locals.storeEpoch as number | undefined;
    res.locals.storeEpoch = undefined;
    if (refusal) return refusedText(res, refusal);
    if (started === undefined || (!restoring() && started === epoch())) return undefined;
    return refusedText(
      res,
      new DomainError(
        'storage_full',
        'The change could not be stored: a write to the state file failed meanwhile and its state was reloaded. Nothing was changed or charged; retry the request.',
      ),
    );
  };

  // While a failed commit's reload runs nothing is written: the members are refused by their epoch (verdict).
  const group = groupCommit({ commit, mayWrite: () => !deps.closed() && !restoring(), verdict, log: deps.log });

  // Answered here, not by the error handler (the response is already on its way out): the same tables apply.
  const statuses: Record<string, number> = { ...STORE_ERROR_STATUSES, ...deps.errorStatuses };
  const codes = deps.errorCodes ?? {};
  const refusedText = (res: Response, error: CodedError) => {
    const body = JSON.stringify({ error: { code: answeredCode(error.code, codes), message: error.message } });
    res.statusCode = statusFor(error.code, statuses);
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    return body;
  };

  return {
    middleware() {
      return (req, res, next) => {
        if (!READ_ONLY.has(req.method)) res.locals.storeEpoch = epoch();
        next();
      };
    },
    gate(res, release) {
      if (deps.closed()) return undefined;
      if (res.locals.storeEpoch === undefined) {
        // A read answered while changes wait for their commit may show them: it goes out with them, or as their 507.
        if (group.size === 0 || !release) return undefined;
        return group.join(res, release);
      }
      if (release) {
        // Nothing to write and no group waiting (an estimate, a refusal): out at once, with no commit to wait for.
        if (group.size === 0 && deps.nothingToWrite()) return verdict(res, undefined);
        return group.join(res, release);
      }
      if (restoring() || res.locals.storeEpoch !== epoch()) return verdict(res, undefined);
      try {
        commit();
        return verdict(res, undefined);
      } catch (error) {
        if (error instanceof CodedError) return verdict(res, error);
        throw error;
      }
    },
    settle() {
      if (group.size > 0) group.settle();
    },
  };
}
