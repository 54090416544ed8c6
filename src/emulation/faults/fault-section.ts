// The fault rules as a section of the store of record: exported, checked whole and restored with the state.
import { IMPORTED_COUNTER_RULE, MAX_IMPORTED_COUNTER } from '../../domain/counters.js';
import { DomainError } from '../../domain/errors.js';
import type { RestoreOrigin } from '../../domain/runtime.js';
import { notAnExport } from '../../domain/state-problems.js';
import { type FieldProblem, fieldProblems, nestProblems } from '../../domain/zod-issues.js';
import type { Install, KeptValue } from '../../wiring/kept-state.js';
import { PlaneSection } from '../plane-state.js';
import { unreachable } from './fault-reach.js';
import { faultRuleSchema } from './fault-schema.js';
import { MAX_FAULT_RULES } from './fault-rule-ids.js';
import { type FaultRule, FaultStore, faultSnapshotSchema } from './fault-store.js';
import { thousands } from '../../domain/thousands.js';

/**
 * One kept rule, checked as POST /_emulator/faults checks it. Its id is held to today's id rules on an import only:
 * a store of record written by an older emulator may hold an id those rules now refuse (`..`), and must still load.
 */
function parseKept(value: unknown, i: number, origin: RestoreOrigin, problems: FieldProblem[]): FaultRule | undefined {
  const at = ['control', 'faults', i];
  const outer = faultSnapshotSchema.safeParse(value);
  if (!outer.success) {
    problems.push(...fieldProblems(outer.error.issues, at));
    return undefined;
  }
  const s = outer.data;
  const { id: _ignored, ...definition } = s.definition;
  const inner = faultRuleSchema.safeParse(origin === 'import' ? { ...definition, id: s.id } : definition);
  if (!inner.success) {
    for (const issue of inner.error.issues)
      problems.push(...fieldProblems([issue], issue.path[0] === 'id' ? at : [...at, 'definition']));
    return undefined;
  }
  // A rule no request could fire comes in by no door; a store's own may predate that check, and loads.
  if (origin === 'import') problems.push(...nestProblems(`control.faults[${i}].definition`, unreachable(inner.data)));
  if (s.fired > s.matched) problems.push({ field: `control.faults[${i}].fired`, message: 'must not exceed matched' });
  // Counted on by every request it matches: an import leaves room for them, as for ids (the store's own may be more).
  if (origin === 'import' && s.matched > MAX_IMPORTED_COUNTER)
    problems.push({ field: `control.faults[${i}].matched`, message: `${IMPORTED_COUNTER_RULE} (got ${s.matched})` });
  return { ...s, definition, parsed: inner.data };
}

export class FaultSection extends PlaneSection implements KeptValue {
  readonly kind = 'value';
  readonly name = 'faults';
  readonly empty = [];

  current() {
    return this.state.faults.snapshot();
  }

  prepare(value: unknown, origin: RestoreOrigin): Install {
    if (!Array.isArray(value))
      throw new DomainError(
        'invalid_state',
        'control.faults: must be an array of fault rules, as GET /_emulator/state exports it.',
      );
    // Counted before a rule is parsed; the store's own state loads whole (it may predate the bound).
    if (origin === 'import' && value.length > MAX_FAULT_RULES)
      throw new DomainError(
        'invalid_state',
        `control.faults: holds ${value.length} rules; at most ${thousands(MAX_FAULT_RULES)} can be in force at once. Import fewer.`,
      );
    // Every rule is checked before anything changes: a bad one refuses the whole state, naming its field.
    const problems: FieldProblem[] = [];
    const rules: FaultRule[] = [];
    const seen = new Map<string, number>();
    value.forEach((item, i) => {
      const rule = parseKept(item, i, origin, problems);
      if (!rule) return;
      const first = seen.get(rule.id);
      if (first === undefined) seen.set(rule.id, i);
      else
        problems.push({ field: `control.faults[${i}].id`, message: `'${rule.id}' is also control.faults[${first}]` });
      rules.push(rule);
    });
    if (problems.length > 0) throw notAnExport(problems);
    const faults = new FaultStore();
    faults.restore(rules);
    return () => {
      this.state.faults = faults;
    };
  }
}
