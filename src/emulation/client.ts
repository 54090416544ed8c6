// The typed in-process control client: the registry's operations run in this process, for tests. Every method returns a promise.
import type { ControlDeps } from './plane-state.js';
import { CONTROL_OPERATIONS } from './registry/registry.js';
import { type ClientSide, type Control, deriveControl } from './registry/client-bindings.js';
import { type AnyOperation, type HandlerInput, runOperation } from './registry/operation.js';

export type { Control, SandboxHandle } from './registry/client-bindings.js';

/**
 * `deps()` gives the current deps. Each call runs the operation's handler, then `commit` writes its change to the
 * store of record before the promise settles, as an answer over HTTP is (a full disk rejects it with storage_full,
 * the change rolled back). `side` sets the base URL the deps carry and gives a sandbox's own client.
 */
export function createControl(deps: () => ControlDeps, side: Omit<ClientSide, 'invoke'>, commit: () => void): Control {
  const operations: Record<string, AnyOperation> = CONTROL_OPERATIONS;
  return deriveControl({
    ...side,
    async invoke(id, input) {
      const result = await runOperation(operations[id], deps(), input as Partial<HandlerInput<string>>);
      commit();
      return result;
    },
  });
}
