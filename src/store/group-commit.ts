// Group commit: the answers that end in one turn of the event loop wait for one transaction, then go out (or as its 507).
import type { Response } from 'express';
import { CodedError, DomainError } from '../domain/errors.js';
import { type Release, WAIT } from '../http/response-pipeline.js';

const INTERNAL =
  'The emulator hit an internal error. This is a bug in the emulator; please report it with the request.';

/** A commit's refusal: the core's 507 storage_full, the store's 409 state_not_loaded, or the 500 of a bug. */
export type Refusal = CodedError;

export interface GroupCommitDeps {
  /** Commits everything pending as one transaction; throws the refusal (507 storage_full...) when it fails. */
  commit(): void;
  /** False when nothing may be written now (closed, or a failed commit's reload is running). */
  mayWrite(): boolean;
  /** A member's answer: undefined when it stands, else the body of its refusal (set on `res` with its status). */
  verdict(res: Response, refusal: Refusal | undefined): string | undefined;
  log(line: string): void;
}

export interface GroupCommit {
  /** How many responses wait for the next commit. */
  readonly size: number;
  /** Holds `res` until the group's commit; the first member schedules it after this turn's I/O callbacks. */
  join(res: Response, release: Release): typeof WAIT;
  /** Commits now and lets every member go (the scheduled run, or a close that cannot wait). */
  settle(): void;
}

export function groupCommit(deps: GroupCommitDeps): GroupCommit {
  const members: Response[] = [];
  const releases: Release[] = [];

  const settle = () => {
    const waiting = members.splice(0);
    const release = releases.splice(0);
    let refusal: Refusal | undefined;
    if (deps.mayWrite())
      try {
        deps.commit();
      } catch (error) {
        if (error instanceof CodedError) refusal = error;
        else {
          // A bug, not the disk: the members still get an answer (the error envelope's 500), never a hang.
          deps.log(`the group commit failed: ${(error as Error).stack ?? String(error)}`);
          refusal = new DomainError('internal_error', INTERNAL);
        }
      }
    for (let i = 0; i < waiting.length; i++) {
      try {
        release[i](waiting[i], deps.verdict(waiting[i], refusal));
      } catch (error) {
        // One member's failure to go out (a socket already gone) must not keep the others waiting.
        deps.log(`could not send a response after the group commit: ${(error as Error).message}`);
        waiting[i].destroy();
      }
    }
  };

  return {
    get size() {
      return members.length;
    },
    join(res, release) {
      if (members.push(res) === 1) setImmediate(settle);
      releases.push(release);
      return WAIT;
    },
    settle,
  };
}
