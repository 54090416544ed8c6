// How one control-plane operation is documented: admin auth, JSON body errors, path and query parameters.
import type * as z from 'zod';
import { objectMembers } from '../../openapi/json-schema.js';
import { json, ref, type ErrorEntry, type OperationSpec, type Parameter } from '../../openapi/operation.js';
import { BAD_PATH, STORAGE_FULL } from '../../openapi/public-paths.js';
import { bodyRequired } from './control-inputs.js';

const ADMIN_ERRORS = [
  'path_not_canonical',
  'host_not_allowed',
  'origin_not_allowed',
  'admin_token_required',
  'admin_token_invalid',
];
/** express.json() in front of every control body: unreadable JSON, a wrong charset, more than its limit. */
const JSON_ERRORS: ErrorEntry[] = ['payload_too_large', { code: 'bad_request', statuses: [400, 415] }];
export const INVALID = 'invalid_control_request';

export interface ControlOp {
  method: OperationSpec['method'];
  path: string;
  id: string;
  summary: string;
  description?: string;
  body?: string;
  status?: number;
  answer: string;
  errors?: ErrorEntry[];
  query?: z.ZodType;
}

export function op(spec: ControlOp): OperationSpec {
  const pathParams: Parameter[] = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query: Parameter[] = spec.query
    ? objectMembers(spec.query, 'input').map((m) => ({
        name: m.name,
        in: 'query',
        required: m.required,
        schema: m.schema,
      }))
    : [];
  const parameters = [...pathParams, ...query];
  return {
    method: spec.method,
    path: spec.path,
    operationId: spec.id,
    summary: spec.summary,
    // Every operation carries a description (linters ask for one); most control calls say all in their summary.
    description: spec.description ?? `${spec.summary}. A control-plane call: docs/control-plane.md describes it.`,
    tag: 'Control',
    auth: 'admin',
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: bodyRequired(spec.body),
            content: { 'application/json': { schema: ref(spec.body) } },
          },
        }
      : {}),
    responses: { [spec.status ?? 200]: json(ref(spec.answer), spec.summary) },
    errors: [
      ...ADMIN_ERRORS,
      ...(spec.body ? [...JSON_ERRORS, INVALID] : []),
      ...(spec.query ? [INVALID] : []),
      ...(spec.errors ?? []),
      ...(pathParams.length ? [BAD_PATH] : []),
      // Every change is committed to the store of record before the answer; a full disk refuses it (507).
      ...(spec.method === 'get' ? [] : [STORAGE_FULL]),
    ],
  };
}
