// A scenario step, declared beside what it runs: its fields, the run, and the dry-run check that refuses it beforehand.
import type * as z from 'zod';
import type { ControlDeps } from '../plane-state.js';
import {
  type AnyOperation,
  type CallInput,
  type ParsedInput,
  parseOperationInput,
  runOperation,
} from '../registry/operation.js';
import type { DryRun } from './dry-run.js';

/** A step as a scenario file writes it, without its `op`, once the scenario schema has read it. */
type Fields<S extends z.ZodRawShape> = z.output<z.ZodObject<S>>;

/**
 * A step's two halves. `check` throws what `run` would be refused with, against the state the earlier steps would
 * leave (`DryRun`), having changed nothing; `run` then cannot be refused, and is synchronous.
 */
export interface ScenarioStep<S extends z.ZodRawShape = z.ZodRawShape> {
  /** Its fields besides `op`, checked with the scenario (invalid_scenario names each bad one). */
  fields: S;
  check(run: DryRun, step: Fields<S>, deps: ControlDeps): void;
  run(deps: ControlDeps, step: Fields<S>): void;
}

/**
 * A step that is a control operation: it runs as a request would (its input parsed by the operation's schemas, so a
 * refusal reads as the request's), synchronously. `input` maps the step's fields to the operation's parameters and
 * body (default: the fields are the body); `check` refuses, against the dry run, what the operation would refuse.
 */
export function operationStep<Op extends AnyOperation, S extends z.ZodRawShape>(
  operation: Op,
  spec: {
    fields: S;
    input?: (step: Fields<S>, deps: ControlDeps) => CallInput<Op>;
    check?: (run: DryRun, input: ParsedInput<Op>, deps: ControlDeps) => void;
  },
): ScenarioStep<S> {
  const input = (step: Fields<S>, deps: ControlDeps) =>
    (spec.input?.(step, deps) ?? { body: step }) as Parameters<typeof runOperation>[2];
  return {
    fields: spec.fields,
    check: (run, step, deps) => spec.check?.(run, parseOperationInput(operation, input(step, deps)), deps),
    run(deps, step) {
      const result: unknown = runOperation(operation, { ...deps, synchronous: true }, input(step, deps));
      if (result instanceof Promise) throw new Error('A scenario step ran an operation that did not finish at once');
    },
  };
}

/** A step no control operation does (a further account, the clock put at an instant). */
export const ownStep = <S extends z.ZodRawShape>(step: ScenarioStep<S>): ScenarioStep<S> => step;
