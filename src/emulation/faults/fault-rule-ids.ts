// The ids and the count of fault rules: generated ids that skip the ones in use, the bound on rules in force, their refusals.
import { DomainError } from '../../domain/errors.js';
import { thousands } from '../../domain/thousands.js';
import { PlaneError } from '../error-codes.js';

/**
 * Rules in force at once, scenario rules included: far past any test's needs (a scenario holds at most as many), while
 * every request is matched against every rule and each compiled pattern costs memory, so an unbounded list would slow
 * every request and grow the process without end. A store of record kept before the bound existed still loads whole.
 */
export const MAX_FAULT_RULES = 1000;

/** The refusal of a rule past MAX_FAULT_RULES, with what to do instead. */
export const faultLimitReached = (what: string) =>
  new DomainError(
    'limit_reached',
    `${what} would put more than ${thousands(MAX_FAULT_RULES)} fault rules in force, the maximum; remove some (DELETE /_emulator/faults/{id}, or DELETE /_emulator/faults for all) or unload the scenario first.`,
  );

/** A generated rule id: the n-th the store hands out. */
const generatedId = (n: number) => `flt_${String(n).padStart(6, '0')}`;

/** The first generated id after the `seq`-th that `taken` does not hold, and its number. */
export function nextFreeId(seq: number, taken: (id: string) => boolean): { id: string; seq: number } {
  let n = seq;
  let id: string;
  do id = generatedId(++n);
  while (taken(id));
  return { id, seq: n };
}

export const faultExists = (id: string) =>
  new PlaneError('fault_exists', `A fault rule with id '${id}' already exists; remove it first or choose another id.`);

/**
 * The ids rules whose own ids are `given` (undefined: generated from `seq` on) get, added in order to a store holding
 * only the rules with ids `held`; nothing is taken. The first id taken already, by a held rule or an earlier one of
 * `given`, is thrown as `refuse(id, index)` makes it.
 */
export function planIds(
  seq: number,
  given: readonly (string | undefined)[],
  held: readonly string[],
  refuse: (id: string, index: number) => Error,
): string[] {
  const taken = new Set(held);
  let next = seq;
  return given.map((own, index) => {
    let id = own;
    if (id === undefined) ({ id, seq: next } = nextFreeId(next, (candidate) => taken.has(candidate)));
    if (taken.has(id)) throw refuse(id, index);
    taken.add(id);
    return id;
  });
}
