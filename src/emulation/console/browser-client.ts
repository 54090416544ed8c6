// The console's control client, bundled for a browser by scripts/bundle-console.ts: connectEmulator's methods over fetch.
import type { JsonSchema } from '../../openapi/json-schema.js';
import type { Control } from '../client.js';
import { type ConnectOptions, connectOver, type Routes } from '../registry/fetch-client.js';
import type { OperationId } from '../registry/registry.js';
import type { ScenarioInput } from '../scenarios/scenario-schema.js';

export { EmulatorControlError } from '../registry/fetch-client.js';

/**
 * Written in by the bundler from the registry: each operation's method and path, and the document's JSON Schema of
 * each body (`bodies` names its component in `schemas`), so the console builds its forms from the schemas.
 */
declare const CONTROL_REGISTRY: {
  routes: Routes;
  bodies: Partial<Record<OperationId, string>>;
  schemas: Record<string, JsonSchema>;
};

/** A page has no files: a scenario is loaded by name or given whole. */
const scenarioBody = (scenario: string | ScenarioInput) =>
  typeof scenario === 'string' ? { name: scenario } : { scenario };

export const connect = (url: string, options: ConnectOptions = {}): Control =>
  connectOver(CONTROL_REGISTRY.routes, url, options, scenarioBody);

/** Every `$ref` to a component replaced by the component. */
function resolved(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(resolved);
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref, ...rest } = schema as JsonSchema;
  if (typeof $ref === 'string') return resolved(CONTROL_REGISTRY.schemas[$ref.replace('#/components/schemas/', '')]);
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, resolved(value)]));
}

/** The JSON Schema of an operation's body, as /openapi.json documents it, with its references resolved. */
export const bodySchema = (id: OperationId): JsonSchema => {
  const name = CONTROL_REGISTRY.bodies[id];
  if (!name) throw new Error(`${id} takes no body`);
  return resolved(CONTROL_REGISTRY.schemas[name]) as JsonSchema;
};
