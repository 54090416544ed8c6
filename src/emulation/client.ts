// The typed in-process control client: the registry's operations run in this process, for tests. Every method returns a promise.
import type { ControlDeps } from './plane-state.js';
import { CONTROL_OPERATIONS } from './registry/registry.js';
import { type CLIENT_BINDINGS, type DerivedClient, deriveClient } from './registry/client-bindings.js';
import { type AnyOperation, type HandlerInput, runOperation } from './registry/operation.js';
import type { HostScenarios } from './scenarios/scenario-shelf.js';

/** The methods and their documentation are the bindings' (registry/client-bindings.ts); both clients are this type. */
export interface Control extends DerivedClient<typeof CLIENT_BINDINGS> {
  /** Base URL for output links in control answers; startEmulator sets it to the listening URL (default: relative links). */
  setBaseUrl(url: string | undefined): void;
}

/**
 * `deps()` gives the current deps; `setBaseUrl` changes the base URL they carry. Each call runs the operation's handler,
 * then `commit` writes its change to the store of record before the promise settles, as an answer over HTTP is (a
 * full disk rejects it with storage_full, the change rolled back).
 */
export function createControl(
  deps: () => ControlDeps,
  setBaseUrl: (url: string | undefined) => void,
  commit: () => void = () => undefined,
  scenarioBody: HostScenarios['loadBody'] = (scenario) =>
    typeof scenario === 'string' ? { name: scenario } : { scenario },
): Control {
  const operations: Record<string, AnyOperation> = CONTROL_OPERATIONS;
  const methods: Omit<Control, 'setBaseUrl'> = deriveClient({
    async invoke(id, input) {
      const result = await runOperation(operations[id], deps(), input as Partial<HandlerInput<string>>);
      commit();
      return result;
    },
    scenarioBody,
  });
  return { ...methods, setBaseUrl };
}
