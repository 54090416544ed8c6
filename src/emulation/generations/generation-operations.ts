// A generation the control plane names by id, and how it shows one; the operations are in generation-api.ts.
import { DomainError } from '../../domain/errors.js';
import type { Generation } from '../../domain/generation.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import { generationView } from '../views.js';

export function findGeneration(deps: ControlDeps, id: string): Generation {
  const g = contextOf(deps).generations.get(id);
  if (!g)
    throw new DomainError(
      'generation_not_found',
      `Generation '${id}' does not exist. List generations with GET /_emulator/generations.`,
    );
  return g;
}

/** A generation as the control plane shows it, its output links signed for the deps' base URL. */
export const generationOf = (deps: ControlDeps, g: Generation) =>
  generationView(contextOf(deps), g, deps.baseUrl ?? '');
