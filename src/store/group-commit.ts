// Group commit: the answers that end in one turn of the event loop wait for one transaction, then go out (or as its 507).
import { CodedError, DomainError } from '../domain/errors.js';

const INTERNAL =
  'The emulator hit an internal error. This is a bug in the emulator; please report it with the request.';

/** A commit's refusal: the core's 507 storage_full, the store's 409 state_not_loaded, or the 500 of a bug. */
export type Refusal = CodedError;

export interface GroupCommitDeps<M, A> {
  /**
   * Commits everything pending as one transaction; throws the refusal (507 storage_full...) when it fails. It may
   * answer which members it could not write for (a part of the group refused on its own), and with what.
   */
  commit(): undefined | ((member: M) => Refusal | undefined);
  /** False when nothing may be written now (closed, or a failed commit's reload is running). */
  mayWrite(): boolean;
  /** A member's answer: undefined when it stands, else its refusal's answer. */
  verdict(member: M, refusal: Refusal | undefined): A | undefined;
  /** Runs `settle` after this turn's I/O callbacks (setImmediate under Node). */
  defer(settle: () => void): void;
  log(line: string): void;
}

export interface GroupCommit<M, A> {
  /** How many members wait for the next commit. */
  readonly size: number;
  /** Holds `member` until the group's commit; the first member schedules it. Resolves to its verdict. */
  join(member: M): Promise<A | undefined>;
  /** Commits now and lets every member go (the scheduled run, or a close that cannot wait). */
  settle(): void;
}

export function groupCommit<M, A>(deps: GroupCommitDeps<M, A>): GroupCommit<M, A> {
  const members: M[] = [];
  const releases: ((answer: A | undefined) => void)[] = [];

  const settle = () => {
    const waiting = members.splice(0);
    const release = releases.splice(0);
    let refusal: Refusal | undefined;
    let refusalOf: ((member: M) => Refusal | undefined) | undefined;
    if (deps.mayWrite())
      try {
        refusalOf = deps.commit() ?? undefined;
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
        release[i](deps.verdict(waiting[i], refusal ?? refusalOf?.(waiting[i])));
      } catch (error) {
        // One member's verdict failing must not keep the others waiting.
        deps.log(`could not judge a response after the group commit: ${(error as Error).message}`);
        release[i](undefined);
      }
    }
  };

  return {
    get size() {
      return members.length;
    },
    join(member) {
      if (members.push(member) === 1) deps.defer(settle);
      return new Promise((resolve) => releases.push(resolve));
    },
    settle,
  };
}
