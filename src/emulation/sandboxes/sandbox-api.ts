// /_emulator/sandboxes: the lifecycle of sandboxes (worlds beside the default one), declared once (registry/operation.ts).
import { PlaneError } from '../error-codes.js';
import { okAfter, okSchema } from '../openapi/control-schemas.js';
import type { ControlDeps } from '../plane-state.js';
import { defineOperation } from '../registry/operation.js';
import type { SandboxDirectory } from './sandbox-directory.js';
import { createdSandboxSchema, sandboxInput, sandboxListSchema, sandboxSchema } from './sandbox-schema.js';

/** The registry; an emulator composed without one (the browser's, src/msw/) refuses as if no sandbox existed. */
function directory(deps: ControlDeps): SandboxDirectory {
  if (!deps.sandboxes) throw new PlaneError('sandbox_not_found', 'This emulator keeps no sandboxes.');
  return deps.sandboxes;
}

const LIFECYCLE =
  'Instance-wide: it needs the admin token when one is in force, and a sandbox token is refused with 403 sandbox_token_forbidden. docs/sandboxes.md describes sandboxes.';

export const SANDBOX_API = {
  createSandbox: defineOperation({
    method: 'post',
    path: '/_emulator/sandboxes',
    summary: 'Create a sandbox: a whole emulated world of its own, reached by its API key and control token',
    description: `A sandbox inherits the instance's options (timing, catalogue, balance) unless given its own. ${LIFECYCLE}`,
    body: sandboxInput,
    input: 'sandbox',
    status: 201,
    answer: createdSandboxSchema,
    errors: ['sandbox_limit_reached'],
    handle: (deps, { body }) => directory(deps).create(body),
  }),
  listSandboxes: defineOperation({
    method: 'get',
    path: '/_emulator/sandboxes',
    summary: 'The sandboxes alive now (without their tokens)',
    description: LIFECYCLE,
    answer: sandboxListSchema,
    handle: (deps) => ({ data: directory(deps).list() }),
  }),
  getSandbox: defineOperation({
    method: 'get',
    path: '/_emulator/sandboxes/:id',
    summary: 'One sandbox (without its token)',
    answer: sandboxSchema,
    handle: (deps, { params }) => directory(deps).get(params.id),
  }),
  resetSandbox: defineOperation({
    method: 'post',
    path: '/_emulator/sandboxes/:id/reset',
    summary: 'A sandbox back to its creation state (its seed, balance, timing and API key kept)',
    answer: okSchema,
    handle: (deps, { params }) => okAfter(directory(deps).reset(params.id)),
  }),
  deleteSandbox: defineOperation({
    method: 'delete',
    path: '/_emulator/sandboxes/:id',
    summary: 'Delete a sandbox: its API key answers 401 from now on, its paths 404',
    status: 204,
    answer: okSchema,
    handle: (deps, { params }) => directory(deps).remove(params.id),
  }),
};
