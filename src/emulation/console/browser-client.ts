// The console's control client, bundled for a browser by scripts/bundle-console.ts: connectEmulator's methods over fetch.
import type { JsonSchema } from '../../openapi/json-schema.js';
import type { Control } from '../client.js';
import { type ConnectOptions, connectOver, type Routes } from '../registry/fetch-client.js';
import type { OperationId } from '../registry/registry.js';

export { EmulatorControlError } from '../registry/fetch-client.js';

/**
 * Written in by the bundler from the registry: each operation's method and path, and the document's JSON Schema of
 * each body (its references resolved), so the console builds its forms and lists from the schemas.
 */
declare const CONTROL_REGISTRY: { routes: Routes; bodies: Partial<Record<OperationId, JsonSchema>> };

/** A page has no files: a scenario is loaded by name or given whole. */
export const connect = (url: string, options: ConnectOptions = {}): Control =>
  connectOver(CONTROL_REGISTRY.routes, url, options);

/** The JSON Schema of an operation's body, as /openapi.json documents it. */
export const bodySchema = (id: OperationId): JsonSchema | undefined => CONTROL_REGISTRY.bodies[id];
