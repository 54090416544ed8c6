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

export interface ResponseDoc {
  description: string;
  /** Media type -> schema; absent for an empty body. */
  content?: Record<string, { schema: JsonSchema }>;
  headers?: Record<string, { description?: string; required?: boolean; schema: JsonSchema }>;
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
  /** Fault rules can act on it (every /v1/media route): any 4xx/5xx marked with `X-Emulator-Fault`. */
  faults?: boolean;
}

/** What a fault rule's `status` action answers, whatever status it picks. */
export const INJECTED_FAULT: ResponseDoc = {
  description:
    "An answer injected by a fault rule (POST /_emulator/faults or a scenario): any 4xx or 5xx status with the rule's code " +
    '(defaults: 429 `rate_limited`, 500 `internal_error`, 502 `bad_gateway`, 503 `service_unavailable`, 504 `gateway_timeout`). ' +
    '`X-Emulator-Fault` names the rule; `Retry-After` comes with `retry_after_seconds`.',
  headers: {
    'X-Emulator-Fault': { description: 'Id of the fault rule that acted.', required: true, schema: { type: 'string' } },
    'Retry-After': { schema: { type: 'string', pattern: '^[0-9]+$' } },
  },
  content: { 'application/json': { schema: componentRef('InjectedFault') } },
};

export const json = (schema: JsonSchema, description: string, headers?: ResponseDoc['headers']): ResponseDoc => ({
  description,
  content: { 'application/json': { schema } },
  ...(headers ? { headers } : {}),
});

export const ref = componentRef;

/** Responses every operation shares, in `components.responses`. */
export const sharedResponses = () => ({
  MethodNotAllowed: {
    description:
      '`method_not_allowed`: answered to a method the path does not accept (OpenAPI lists only the methods a path has, ' +
      'so every operation names it). Some emulator-only paths answer 404 `route_not_found` instead.',
    headers: { Allow: { description: 'The methods the path accepts.', required: true, schema: { type: 'string' } } },
    content: { 'application/json': { schema: envelopeOf(['method_not_allowed']) } },
  },
});

/** Headers some error statuses always carry. */
const ERROR_HEADERS: Record<number, ResponseDoc['headers']> = {
  405: { Allow: { description: 'The methods the path accepts.', required: true, schema: { type: 'string' } } },
};

/** `Retry-After` accompanies codes whose envelope carries `retry_after_seconds`. */
const RETRY_AFTER_CODES = new Set(['daily_credit_limit_exceeded', 'server_busy']);

export const errorComponentName = (code: string) => `Error.${code}`;

function envelopeOf(codes: string[]): JsonSchema {
  const refs = codes.map((c) => componentRef(errorComponentName(c)));
  return {
    type: 'object',
    properties: { error: refs.length === 1 ? refs[0] : { oneOf: refs } },
    required: ['error'],
    additionalProperties: false,
  };
}

/** The operation's responses: its successes, then every error status with the codes answered at it. */
export function responsesOf(
  op: OperationSpec,
  statuses: Record<string, number>,
  docs?: Readonly<Record<string, ErrorCodeDoc>>,
): Record<string, ResponseDoc | { $ref: string }> {
  const out: Record<string, ResponseDoc | { $ref: string }> = {};
  for (const [status, response] of Object.entries(op.responses)) out[status] = response;
  const plain = op.errors.filter((e): e is string => typeof e === 'string');
  const byStatus = codesByStatus(plain, statuses, docs);
  for (const entry of op.errors) {
    if (typeof entry === 'string') continue;
    for (const status of entry.statuses)
      byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), entry.code])]);
  }
  if (op.validation && !byStatus.has(422)) byStatus.set(422, []);
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const codes = byStatus.get(status)!;
    const schemas: JsonSchema[] = [];
    if (status === 422 && op.validation) schemas.push(componentRef('ValidationError'));
    if (codes.length) schemas.push(envelopeOf(codes));
    const retry = codes.some((c) => RETRY_AFTER_CODES.has(c));
    const headers = {
      ...(ERROR_HEADERS[status] ?? {}),
      ...(retry
        ? {
            'Retry-After': {
              description: 'Seconds until the request can succeed.',
              schema: { type: 'string', pattern: '^[0-9]+$' },
            },
          }
        : {}),
    };
    const description = [
      status === 422 && op.validation ? 'Validation error (`detail` items)' : '',
      ...codes.map((c) => `\`${c}\``),
    ]
      .filter(Boolean)
      .join(', ');
    out[String(status)] = json(
      schemas.length === 1 ? schemas[0] : { oneOf: schemas },
      description,
      Object.keys(headers).length ? headers : undefined,
    );
  }
  if (op.validation) {
    // The real service's own 500 when a 422 echo cannot be rendered (NaN, infinities, lone surrogates): docs/proof.md.
    const existing = out['500'] as ResponseDoc | undefined;
    const plain = { 'text/plain': { schema: { type: 'string', enum: ['Internal Server Error'] } } };
    out['500'] = existing
      ? { ...existing, content: { ...existing.content, ...plain } }
      : { description: 'Internal Server Error: an input the real service cannot echo in a 422', content: plain };
  }
  out['405'] ??= { $ref: '#/components/responses/MethodNotAllowed' };
  if (op.faults) out.default = INJECTED_FAULT;
  return out;
}
