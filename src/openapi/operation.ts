// One documented operation as data, and how its error codes become per-status responses in the document.
import { codesByStatus, type ErrorCodeDoc } from './error-codes.js';
import { componentRef, type JsonSchema } from './json-schema.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

interface HeaderDoc {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface ResponseDoc {
  description: string;
  /** Media type -> schema; absent for an empty body. */
  content?: Record<string, { schema: JsonSchema }>;
  headers?: Record<string, HeaderDoc | { $ref: string }>;
}

/** An error code, or a code that the HTTP layer answers with statuses of its own on this operation only. */
export type ErrorEntry = string | { code: string; statuses: number[] };

export interface OperationSpec {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** `bearer`: the API key; `admin`: the admin token when one is configured; `none`: open. */
  auth: 'bearer' | 'admin' | 'none';
  parameters?: Parameter[];
  requestBody?: {
    required?: boolean;
    description?: string;
    content: Record<string, { schema: JsonSchema; encoding?: Record<string, { contentType: string }> }>;
  };
  responses: Record<number, ResponseDoc>;
  errors: ErrorEntry[];
  /** The operation validates input and may answer 422 with a `detail` array. */
  validation?: boolean;
  /** Fault rules can act on it (every /v1/media route, signed downloads): any 4xx/5xx, with the rule's envelope. */
  faults?: boolean;
}

/** Headers an error answer may carry whatever its status, in `components.headers`. */
export const SHARED_HEADERS: Record<string, HeaderDoc> = {
  'X-Emulator-Fault': {
    description: 'Id of the fault rule that answered; absent when the service itself answered.',
    schema: { type: 'string' },
  },
  'Retry-After': {
    description:
      "Seconds to wait before retrying: sent with `daily_credit_limit_exceeded` and `server_busy`, and by a fault rule's 429 or `retry_after`.",
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The envelope a fault rule's `status` action answers (`error-components.ts`). */
const INJECTED = componentRef('InjectedFault');

const FAULT_DEFAULTS =
  "the rule's code, or by status 429 `rate_limited`, 500 `internal_error`, 502 `bad_gateway`, 503 `service_unavailable`, " +
  '504 `gateway_timeout`, any other `bad_request` (4xx) or `internal_error` (5xx)';

/** A fault rule's answer at a status the operation does not list; at a listed status it is one of that status's schemas. */
export const INJECTED_FAULT: ResponseDoc = {
  description: `An answer injected by a fault rule (POST /_emulator/faults or a scenario): any 4xx or 5xx status with ${FAULT_DEFAULTS}.`,
  headers: {
    'X-Emulator-Fault': { ...SHARED_HEADERS['X-Emulator-Fault'], required: true },
    'Retry-After': headerRef('Retry-After'),
  },
  content: { 'application/json': { schema: INJECTED } },
};

export const json = (schema: JsonSchema, description: string, headers?: ResponseDoc['headers']): ResponseDoc => ({
  description,
  content: { 'application/json': { schema } },
  ...(headers ? { headers } : {}),
});

export const ref = componentRef;

/** The `error` member alone: `{ code, message }` and what the code carries. */
export const errorComponentName = (code: string) => `Error.${code}`;
/** The whole answer, `{ "error": Error.<code> }`: one component per code, shared by every operation answering it. */
export const envelopeComponentName = (code: string) => `ErrorEnvelope.${code}`;

/**
 * The schemas one status may answer, as one schema: an `anyOf`, tried in order by a generated client, the fault's
 * envelope last. Envelopes of different codes exclude each other (`error.code` is a const), but a fault rule can answer
 * any code, with or without the members a code carries, so its envelope may match another as well; and linters cannot
 * see a const one level down, so even the codes' own envelopes would read to them as an illogical `oneOf`.
 */
function alternatives(schemas: JsonSchema[], faults: boolean): JsonSchema {
  const all = faults ? [...schemas, INJECTED] : schemas;
  return all.length === 1 ? all[0] : { anyOf: all };
}

const METHOD_NOT_ALLOWED =
  '`method_not_allowed`: answered to a method the path does not accept (OpenAPI lists only the methods a path has, ' +
  'so every operation names it). Some emulator-only paths answer 404 `route_not_found` instead.';

/** Responses operations share, in `components.responses`. */
export const sharedResponses = () => ({
  MethodNotAllowed: {
    description: METHOD_NOT_ALLOWED,
    headers: { Allow: { description: 'The methods the path accepts.', required: true, schema: { type: 'string' } } },
    content: { 'application/json': { schema: componentRef(envelopeComponentName('method_not_allowed')) } },
  },
  // A fault rule may answer 405 too, without `Allow` (it does not know the path's methods).
  MethodNotAllowedOrFault: {
    description: `${METHOD_NOT_ALLOWED} Or a fault rule's 405, which has no \`Allow\`.`,
    headers: {
      Allow: {
        description: "The methods the path accepts (absent on a fault rule's 405).",
        schema: { type: 'string' },
      },
      'X-Emulator-Fault': headerRef('X-Emulator-Fault'),
    },
    content: {
      'application/json': { schema: alternatives([componentRef(envelopeComponentName('method_not_allowed'))], true) },
    },
  },
});

/** Codes answered with `Retry-After` (their envelope carries `retry_after_seconds`). */
const RETRY_AFTER_CODES = new Set(['daily_credit_limit_exceeded', 'server_busy']);

/** Each status an operation answers with an error, and the codes answered at it. */
function errorStatuses(
  op: OperationSpec,
  statuses: Record<string, number>,
  docs?: Readonly<Record<string, ErrorCodeDoc>>,
): Map<number, string[]> {
  const plain = op.errors.filter((e): e is string => typeof e === 'string');
  const byStatus = codesByStatus(plain, statuses, docs);
  for (const entry of op.errors) {
    if (typeof entry === 'string') continue;
    for (const status of entry.statuses)
      byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), entry.code])]);
  }
  if (op.validation && !byStatus.has(422)) byStatus.set(422, []);
  // The real service's own 500 when a 422 echo cannot be rendered (NaN, infinities, lone surrogates): docs/proof.md.
  if (op.validation && !byStatus.has(500)) byStatus.set(500, []);
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The answer at one error status: its codes' envelopes, the 422 body, a fault rule's envelope, the real 500. */
function errorResponse(op: OperationSpec, status: number, codes: string[]): ResponseDoc {
  const validation = status === 422 && op.validation;
  const faults = op.faults === true;
  const schemas = [
    ...(validation ? [componentRef('ValidationError')] : []),
    ...codes.map((c) => componentRef(envelopeComponentName(c))),
  ];
  const realPlain500 = status === 500 && op.validation;
  const description = [
    validation ? 'Validation error (`detail` items)' : '',
    ...codes.map((c) => `\`${c}\``),
    realPlain500 ? '`Internal Server Error` as text: an input the real service cannot echo in a 422' : '',
    faults ? 'an answer injected by a fault rule (`InjectedFault`)' : '',
  ]
    .filter(Boolean)
    .join(', ');
  const headers: NonNullable<ResponseDoc['headers']> = {
    ...(faults ? { 'X-Emulator-Fault': headerRef('X-Emulator-Fault') } : {}),
    ...(faults || codes.some((c) => RETRY_AFTER_CODES.has(c)) ? { 'Retry-After': headerRef('Retry-After') } : {}),
  };
  const content: NonNullable<ResponseDoc['content']> = {};
  // JSON first: a generator that reads one media type per status (openapi-python-client) reads the envelope.
  if (schemas.length || faults) content['application/json'] = { schema: alternatives(schemas, faults) };
  if (realPlain500) content['text/plain'] = { schema: { type: 'string', enum: ['Internal Server Error'] } };
  return { description, content, ...(Object.keys(headers).length ? { headers } : {}) };
}

/** The operation's responses: its successes, then every error status with the codes answered at it. */
export function responsesOf(
  op: OperationSpec,
  statuses: Record<string, number>,
  docs?: Readonly<Record<string, ErrorCodeDoc>>,
): Record<string, ResponseDoc | { $ref: string }> {
  const out: Record<string, ResponseDoc | { $ref: string }> = {};
  for (const [status, response] of Object.entries(op.responses)) out[status] = response;
  for (const [status, codes] of errorStatuses(op, statuses, docs))
    out[String(status)] = errorResponse(op, status, codes);
  out['405'] ??= { $ref: `#/components/responses/${op.faults ? 'MethodNotAllowedOrFault' : 'MethodNotAllowed'}` };
  if (op.faults) out.default = INJECTED_FAULT;
  return out;
}
