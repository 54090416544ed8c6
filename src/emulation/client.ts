// The typed control client, derived from the bindings (registry/client-bindings.ts) over any `invoke`: in this process
// (plugin.ts runs each operation), over fetch (registry/fetch-client.ts: connectEmulator and the console's bundle).
// No value import reaches Node here, so the console's browser bundle derives its client from this file too.
import type { OperationId } from './registry/registry.js';
import { type Binding, CLIENT_BINDINGS, type ClientContext } from './registry/client-bindings.js';
import type { SandboxInput } from './sandboxes/sandbox-schema.js';
import type { ScenarioInput } from './scenarios/scenario-schema.js';

/** The body that loads `scenario` where no file is read (a page, bundled scenarios): a name, or the object. */
export const inlineScenarioBody = (scenario: string | ScenarioInput) =>
  typeof scenario === 'string' ? { name: scenario } : { scenario };

// biome-ignore lint/suspicious/noExplicitAny: any binding
type AnyBinding = Binding<any, any[], unknown>;

/** The client a set of bindings makes: each method sends its operation and gives back what its binding takes. */
export type DerivedClient<B> = {
  [M in keyof B]: B[M] extends Binding<OperationId, infer A, infer R>
    ? (...args: A) => Promise<R>
    : DerivedClient<B[M]>;
};

const isBinding = (value: object): value is AnyBinding => 'op' in value;

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

/** The methods and their documentation are the bindings'; both clients are this type. */
export interface Control extends Omit<DerivedClient<typeof CLIENT_BINDINGS>, 'createSandbox'> {
  /** Base URL for output links in control answers; startEmulator sets it to the listening URL (default: relative links). */
  setBaseUrl(url: string | undefined): void;
  /**
   * A sandbox: a whole world of its own (wallet, keys, generations, faults, journal, clock), reached by its API key.
   * Resolves to `{ id, apiKey, token, control, close() }`: `control` drives that sandbox only, `close()` deletes it.
   */
  createSandbox(options?: SandboxInput): Promise<SandboxHandle>;
}

/** What a client is made of: how it sends, where its links point, and the client of a sandbox it created. */
export interface ClientSide extends ClientContext, Pick<Control, 'setBaseUrl'> {
  sandboxControl(created: { id: string; token: string }): Control;
}

/**
 * Every client is this, over its own `invoke`. `refuse` turns what failed before anything was sent (a scenario file
 * that cannot be read) into the client's own error.
 */
export function deriveControl(client: ClientSide, refuse: (error: unknown) => unknown = (error) => error): Control {
  const derive = (bindings: object): object =>
    Object.fromEntries(
      Object.entries(bindings).map(([name, value]: [string, AnyBinding | object]) => [
        name,
        isBinding(value)
          ? async (...args: unknown[]) => {
              let input: unknown;
              try {
                input = await value.input(client, ...args);
              } catch (error) {
                throw refuse(error);
              }
              return value.result(await client.invoke(value.op, input as never));
            }
          : derive(value),
      ]),
    );
  const methods = derive(CLIENT_BINDINGS) as DerivedClient<typeof CLIENT_BINDINGS>;
  return {
    ...methods,
    setBaseUrl: client.setBaseUrl,
    async createSandbox(spec) {
      const created = await methods.createSandbox(spec);
      const { id, apiKey, token } = created;
      return { id, apiKey, token, control: client.sandboxControl(created), close: () => methods.deleteSandbox(id) };
    },
  };
}
