// The typed in-process control client: the registry's operations run in this process, for tests. Every method returns a promise.
import type { ControlDeps } from './plane-state.js';
import { CONTROL_OPERATIONS } from './registry/registry.js';
import { type CLIENT_BINDINGS, type DerivedClient, deriveClient } from './registry/client-bindings.js';
import { type AnyOperation, type HandlerInput, runOperation } from './registry/operation.js';
import type { SandboxInput } from './sandboxes/sandbox-schema.js';
import type { HostScenarios } from './scenarios/scenario-shelf.js';

/** A sandbox as createSandbox() gives it: the same shape a test already uses for an emulator of its own. */
export interface SandboxHandle {
  id: string;
  /** Its seeded API key: public requests bearing it act on this sandbox. */
  apiKey: string;
  /** Its control token (`sbt_...`), for another process: `connectEmulator(url, { sandbox: id, token })`. */
  token: string;
  /** The control client of this sandbox only. */
  control: Control;
  /** Deletes the sandbox. */
  close(): Promise<void>;
}

/** The methods and their documentation are the bindings' (registry/client-bindings.ts); both clients are this type. */
export interface Control extends Omit<DerivedClient<typeof CLIENT_BINDINGS>, 'createSandbox'> {
  /** Base URL for output links in control answers; startEmulator sets it to the listening URL (default: relative links). */
  setBaseUrl(url: string | undefined): void;
  /**
   * A sandbox: a whole world of its own (wallet, keys, generations, faults, journal, clock), reached by its API key.
   * `close()` deletes it.
   */
  createSandbox(options?: SandboxInput): Promise<SandboxHandle>;
}

/**
 * `deps()` gives the current deps; `setBaseUrl` changes the base URL they carry. Each call runs the operation's handler,
 * then `commit` writes its change to the store of record before the promise settles, as an answer over HTTP is (a
 * full disk rejects it with storage_full, the change rolled back). `sandboxControl` gives a sandbox's own client.
 */
export function createControl(
  deps: () => ControlDeps,
  setBaseUrl: (url: string | undefined) => void,
  commit: () => void = () => undefined,
  sandboxControl: (id: string) => Control = () => {
    throw new Error('this control client makes no sandboxes');
  },
  scenarioBody: HostScenarios['loadBody'] = (scenario) =>
    typeof scenario === 'string' ? { name: scenario } : { scenario },
): Control {
  const operations: Record<string, AnyOperation> = CONTROL_OPERATIONS;
  const methods = deriveClient({
    async invoke(id, input) {
      const result = await runOperation(operations[id], deps(), input as Partial<HandlerInput<string>>);
      commit();
      return result;
    },
    scenarioBody,
  });
  return {
    ...methods,
    setBaseUrl,
    async createSandbox(options) {
      const created = await methods.createSandbox(options);
      return {
        id: created.id,
        apiKey: created.apiKey,
        token: created.token,
        control: sandboxControl(created.id),
        close: () => methods.deleteSandbox(created.id),
      };
    },
  };
}
