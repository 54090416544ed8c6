// What each of the plane's error codes means, for /openapi.json: a code of the plane's list missing here does not compile.
import * as z from 'zod';
import { type ErrorCodeDoc, problems } from '../../openapi/error-codes.js';
import type { PlaneErrorCode } from '../error-codes.js';

export const PLANE_ERROR_CODE_DOCS: Readonly<Record<PlaneErrorCode, ErrorCodeDoc>> = {
  path_not_canonical: {
    description:
      'A path naming /_emulator holds an encoded slash or backslash (%2f, %5c), a backslash or a dot segment (., .., %2e); send the plain path.',
  },
  host_not_allowed: {
    description:
      'The Host header names a host that may not reach /_emulator/* (DNS-rebinding guard); use localhost or add the name with --allowed-hosts.',
  },
  origin_not_allowed: {
    description:
      'The request comes from a page on another site (Origin header) that may not drive /_emulator/*; use the console or --control-cors-origins.',
  },
  admin_token_required: { description: 'The emulator was started with an admin token and the call carried none.' },
  admin_token_invalid: { description: 'The admin token does not match.' },
  account_exists: { description: 'An account with this id already exists.' },
  invalid_control_request: {
    description:
      'A control body or query is not valid; `problems` names every bad field when the body failed its schema.',
    details: { problems: problems.optional() },
  },
  invalid_fault_rule: {
    description: 'A fault rule is not valid; `problems` names every bad field when the rule failed its schema.',
    details: { problems: problems.optional() },
  },
  fault_not_found: { description: 'No fault rule with this id.' },
  fault_exists: { description: 'A fault rule with this id already exists.' },
  invalid_scenario: {
    description: 'A scenario is not valid; `problems` names every bad field when there are field problems.',
    details: { problems: problems.optional() },
  },
  scenario_not_found: { description: 'No scenario with this name or file.' },
  unreachable_state: {
    description: 'The generation can no longer reach the state waited for (control client waitFor).',
    details: { generation_id: z.string(), status: z.string(), target: z.string() },
  },
  generation_not_completed: {
    description:
      'Only a completed generation has output links to expire (POST /_emulator/generations/{id}/expire-links).',
  },
  nothing_scheduled: {
    description: 'Advance to the next transition found none scheduled: every generation is final or stalled.',
  },
  journal_entry_not_found: {
    description: 'No journal entry with this id: it never existed, or the journal was cleared or trimmed.',
  },
  sandbox_not_found: {
    description: 'No sandbox with this id: it never existed, was deleted, or expired after its idle TTL.',
  },
  sandbox_limit_reached: {
    description:
      'The emulator holds as many sandboxes as --max-sandboxes (maxSandboxes) allows: delete one, or raise it.',
  },
  sandbox_token_forbidden: {
    description:
      "A sandbox's control token reaches that sandbox only: not another sandbox, not the instance-wide operations.",
  },
};
