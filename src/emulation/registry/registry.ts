// The registry of control operations: every JSON call under /_emulator/* declared once, in the folder its URL names.
//
// From each declaration come its route (control-routes.ts), the in-process client and the remote client
// (client-bindings.ts gives each documented client method the operation it calls) and its OpenAPI operation
// (openapi/control-op.ts). Keyed by operationId.
//
// Exceptions, still written by hand, because they are not JSON calls of the control clients:
// - GET /_emulator/health (admin/health-routes.ts): served with the control plane off too, never needs the token,
//   and reads the plugin's setup rather than the control deps;
// - GET /_emulator/console and its assets (console/console-routes.ts): HTML, script and style from disk;
// - GET /openapi.json (src/openapi/openapi-route.ts): the document itself.
import { ACCOUNT_API } from '../admin/account-api.js';
import { CLOCK_API } from '../clock/clock-api.js';
import { FAULT_API } from '../faults/fault-api.js';
import { GENERATION_API } from '../generations/generation-api.js';
import { JOURNAL_API } from '../journal/journal-api.js';
import { SANDBOX_API } from '../sandboxes/sandbox-api.js';
import { SCENARIO_API } from '../scenarios/scenario-api.js';
import { STATE_API } from '../state/state-api.js';
import { SUMMARY_API } from '../summary-api.js';
import type { AnyOperation } from './operation.js';

export const CONTROL_OPERATIONS = {
  ...ACCOUNT_API,
  ...CLOCK_API,
  ...GENERATION_API,
  ...FAULT_API,
  ...SCENARIO_API,
  ...JOURNAL_API,
  ...STATE_API,
  ...SUMMARY_API,
  ...SANDBOX_API,
};

export type ControlOperations = typeof CONTROL_OPERATIONS;
export type OperationId = keyof ControlOperations;

export const operationEntries = () => Object.entries(CONTROL_OPERATIONS) as [OperationId, AnyOperation][];
