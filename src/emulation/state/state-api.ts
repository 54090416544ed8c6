// /_emulator/state, declared once (registry/operation.ts): the store of record's document, through its handle.
import { DomainError } from '../../domain/errors.js';
import type { ControlDeps } from '../plane-state.js';
import { defineOperation } from '../registry/operation.js';
import { okAfter, okSchema, stateSchema } from '../openapi/control-schemas.js';
import type { EmulatorState } from './emulator-state.js';
import { checkStateEnvelope } from './state-envelope.js';

/**
 * Key secrets are unique across worlds (the front door finds a world by its key): an import holding a key another world
 * holds is refused before anything changes, without naming that world. Its own keys may come back (a restore).
 */
function refuseKeysOfOtherWorlds(deps: ControlDeps, body: unknown) {
  const keys = (body as { domain?: { keys?: unknown } }).domain?.keys;
  if (!deps.sandboxes || !Array.isArray(keys)) return;
  for (const key of keys) {
    const secret = (key as { secret?: unknown } | null)?.secret;
    if (typeof secret === 'string' && deps.sandboxes.secretHeldElsewhere(secret, deps.runtime))
      throw new DomainError(
        'key_exists',
        'The state holds an API key whose secret another world of this emulator (a sandbox or the default one) holds; delete that one first, or change the secret in the export.',
      );
  }
}

export const STATE_API = {
  exportState: defineOperation({
    method: 'get',
    path: '/_emulator/state',
    summary: 'Export the whole state',
    answer: stateSchema,
    handle: (deps) => deps.store.exportState() as EmulatorState,
  }),
  importState: defineOperation({
    method: 'put',
    path: '/_emulator/state',
    summary: 'Replace the whole state with an export',
    body: stateSchema,
    // Uploads travel base64 inside an export, so an import body may be large.
    bodyLimit: 512 * 1024 * 1024,
    answer: okSchema,
    errors: ['invalid_state', 'invalid_fault_rule', 'invalid_scenario', 'key_exists'],
    handle: async (deps, { body }) => {
      checkStateEnvelope(body);
      refuseKeysOfOtherWorlds(deps, body);
      return okAfter(deps.store.importState(body));
    },
  }),
};
