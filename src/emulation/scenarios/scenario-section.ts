// The active scenario as a section of the store of record: every member checked again when it comes back.
import * as z from 'zod';
import type { CodedError } from '../../domain/errors.js';
import { LAST_INSTANT_MS } from '../../domain/durations.js';
import type { RestoreOrigin } from '../../domain/runtime.js';
import { notAnExport } from '../../domain/state-problems.js';
import { type FieldProblem, fieldProblems, nestProblems } from '../../domain/zod-issues.js';
import type { Install, KeptValue } from '../../wiring/kept-state.js';
import { PlaneSection } from '../plane-state.js';
import { parseScenario } from './scenario-parse.js';
import type { ScenarioDefinition } from './scenario-schema.js';

const activeSchema = z.object({
  definition: z.unknown(),
  loadedAt: z
    .number()
    .min(0, 'must be a time from 1970 to 9999 (ms since the epoch)')
    .max(LAST_INSTANT_MS, 'must be a time from 1970 to 9999 (ms since the epoch)'),
  /** Ids of the rules it installed, in its order. */
  ruleIds: z.array(z.string()),
  stepsRun: z.int('must be a whole number').min(0),
});
/** The scenario in force: its definition as loaded, and how far its load got. */
export type ActiveScenario = Omit<z.output<typeof activeSchema>, 'definition'> & { definition: ScenarioDefinition };

/**
 * What the views and an unload read of a definition. A store of record written by an older emulator may hold a
 * scenario today's rules refuse (it created account `__proto__`): it was valid when loaded and ran then, so a start
 * keeps it for display and unloading rather than refusing to start.
 */
const storedDefinitionSchema = z.looseObject({
  name: z.string().min(1),
  steps: z.array(z.unknown()),
  faults: z.array(z.unknown()).default([]),
});

function parseDefinition(value: unknown, origin: RestoreOrigin): ScenarioDefinition {
  try {
    return parseScenario(value, origin === 'store' ? '(stored)' : '(imported)');
  } catch (error) {
    if (origin === 'store') {
      const stored = storedDefinitionSchema.safeParse(value);
      if (stored.success) return stored.data as unknown as ScenarioDefinition;
    }
    const inner = ((error as CodedError).details?.problems ?? []) as FieldProblem[];
    throw notAnExport(nestProblems('control.scenario.definition', inner));
  }
}

/** The active scenario a document holds, or null; refused whole, naming each bad member, before anything changes. */
function parseActiveScenario(value: unknown, origin: RestoreOrigin): ActiveScenario | null {
  if (value === null || value === undefined) return null;
  const outer = activeSchema.safeParse(value);
  if (!outer.success) throw notAnExport(fieldProblems(outer.error.issues, ['control', 'scenario']));
  const definition = parseDefinition(outer.data.definition, origin);
  const { ruleIds, stepsRun } = outer.data;
  const problems: FieldProblem[] = [];
  const refuse = (member: string, message: string) => problems.push({ field: `control.scenario.${member}`, message });
  // A load runs every step, then installs the scenario's rules: one id each, none twice.
  if (stepsRun > definition.steps.length) refuse('stepsRun', `must be at most ${definition.steps.length}, its steps`);
  if (ruleIds.length > definition.faults.length)
    refuse('ruleIds', `must hold at most ${definition.faults.length} ids, its rules`);
  ruleIds.forEach((id, i) => {
    if (ruleIds.indexOf(id) !== i) refuse(`ruleIds[${i}]`, `'${id}' is also ruleIds[${ruleIds.indexOf(id)}]`);
  });
  if (problems.length > 0) throw notAnExport(problems);
  return { definition, loadedAt: outer.data.loadedAt, ruleIds, stepsRun };
}

export class ScenarioSection extends PlaneSection implements KeptValue {
  readonly kind = 'value';
  readonly name = 'scenario';
  readonly empty = null;

  current() {
    return this.state.scenario;
  }

  prepare(value: unknown, origin: RestoreOrigin): Install {
    const scenario = parseActiveScenario(value, origin);
    return () => {
      this.state.scenario = scenario;
    };
  }
}
