// How each declared control operation is documented: admin auth, JSON body errors, path and query parameters.
import * as z from 'zod';
import type { NamedUse } from '../../openapi/json-schema.js';
import { json, ref, type ErrorEntry, type OperationSpec, type Parameter } from '../../openapi/operation.js';
import { BAD_PATH, parameters as queryParameters, STORAGE_FULL } from '../../openapi/public-paths.js';
import type { AnyOperation } from '../registry/operation.js';
import { operationEntries } from '../registry/registry.js';

const ADMIN_ERRORS = [
  'host_not_allowed',
  'origin_not_allowed',
  'admin_token_required',
  'admin_token_invalid',
  // Every operation answers under /_emulator/sandboxes/{id}/... and to a sandbox's token (src/sandboxes/world-resolver.ts).
  'sandbox_not_found',
  'sandbox_token_forbidden',
];
/**
 * The JSON reading of every control body (registry/control-body.ts): unreadable JSON, a wrong charset, more than its
 * limit; and, as on the public API, a body that stops arriving or finds the cap on buffered bytes full.
 */
const JSON_ERRORS: ErrorEntry[] = [
  'payload_too_large',
  { code: 'bad_request', statuses: [400, 415] },
  'request_timeout',
  'server_busy',
];
const INVALID = 'invalid_control_request';

/** A body's or answer's component: the name it gives itself (`.meta({ id })`). */
const refTo = (schema: z.ZodType) => ref(String(z.globalRegistry.get(schema)?.id));

function operationSpec(id: string, op: AnyOperation): OperationSpec {
  const path = op.path.replace(/:(\w+)/g, '{$1}');
  const pathParams: Parameter[] = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const parameters = [...pathParams, ...(op.query ? queryParameters(op.query, 'query') : [])];
  return {
    method: op.method,
    path,
    operationId: id,
    summary: op.summary,
    // Every operation carries a description (linters ask for one); most control calls say all in their summary.
    description: op.description ?? `${op.summary}. A control-plane call: docs/control-plane.md describes it.`,
    tag: 'Control',
    auth: 'admin',
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            // The control plane reads an absent body as `{}`: required when it refuses that.
            required: !op.body.safeParse({}).success,
            content: { 'application/json': { schema: refTo(op.body) } },
          },
        }
      : {}),
    responses: {
      [op.status ?? 200]: op.status === 204 ? { description: op.summary } : json(refTo(op.answer), op.summary),
    },
    errors: [
      ...ADMIN_ERRORS,
      ...(op.body ? [...JSON_ERRORS, INVALID] : []),
      ...(op.query ? [INVALID] : []),
      ...(op.errors ?? []),
      ...(pathParams.length ? [BAD_PATH] : []),
      // Every change is committed to the store of record before the answer; a full disk refuses it (507).
      ...(op.method === 'get' ? [] : [STORAGE_FULL]),
    ],
  };
}

/** Every operation of the registry, documented. */
export const controlOperations = (): OperationSpec[] => operationEntries().map(([id, op]) => operationSpec(id, op));

/** The bodies and answers the operations refer to, each converted with the named schemas it holds. */
export const controlSchemas = (): NamedUse[] =>
  operationEntries().flatMap(([, op]) => [
    ...(op.body ? [{ schema: op.body, io: 'input' as const }] : []),
    { schema: op.answer, io: 'output' as const },
  ]);
