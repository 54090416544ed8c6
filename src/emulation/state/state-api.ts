// /_emulator/state, declared once (registry/operation.ts): the store of record's document, through its handle.
import { defineOperation } from '../registry/operation.js';
import { okSchema, stateSchema } from '../openapi/control-schemas.js';
import type { EmulatorState } from './emulator-state.js';
import { checkStateEnvelope } from './state-envelope.js';

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
    errors: ['invalid_state', 'invalid_fault_rule', 'invalid_scenario'],
    handle: async (deps, { body }) => {
      checkStateEnvelope(body);
      await deps.store.importState(body);
      return { ok: true as const };
    },
  }),
};
