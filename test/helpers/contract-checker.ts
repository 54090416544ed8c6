// Checks one HTTP exchange against the OpenAPI document: route, status, media type, required headers and the JSON body (ajv, 2020-12).
import { hidesSegments, isPlanePath, mentionsPlane } from '../../src/http/plane-path.js';
import type { OutgoingHttpHeaders } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from '../../src/openapi/document.js';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;

export interface Exchange {
  method: string;
  /** Path and query as sent. */
  url: string;
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  truncated?: boolean;
}

interface ResponseDoc {
  content?: Record<string, { schema: unknown }>;
  headers?: Record<string, { required?: boolean; schema: unknown }>;
}

interface Route {
  template: string;
  pattern: RegExp;
  operations: Record<string, { responses: Record<string, ResponseDoc> }>;
}

const DOC_ID = 'https://emulator.local/openapi.json';
/** A fault rule's envelope, one of the schemas at every error status of an operation fault rules act on. */
const INJECTED_REF = '#/components/schemas/InjectedFault';
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const mediaType = (value: unknown) =>
  String(value ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();

const badEscape = (path: string) =>
  path.split('/').some((segment) => {
    try {
      decodeURIComponent(segment);
      return false;
    } catch {
      return true;
    }
  });

export class ContractChecker {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...document, $id: DOC_ID });
    // Literal paths win over templated ones (`/_emulator/scenarios/active` before `/{id}`). Case-sensitive, like the
    // routing: /_EMULATOR/... is no documented route, so it gets the generic 404.
    this.routes = Object.entries(document.paths)
      .map(([template, operations]) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
        operations: operations as Route['operations'],
      }))
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  /** A validator for a schema anywhere in the document, compiled once. */
  private validator(path: string): ValidateFunction {
    let fn = this.compiled.get(path);
    if (!fn) {
      fn = this.ajv.compile({ $ref: `${DOC_ID}#/${path}` });
      this.compiled.set(path, fn);
    }
    return fn;
  }

  private errorEnvelope(code: string): string {
    return pointer('components', 'schemas', `Error.${code}`);
  }

  /** Every violation of this exchange, each a self-contained message; empty when it conforms. */
  check(x: Exchange): string[] {
    const path = x.url.split('?')[0];
    const where = `${x.method} ${x.url.length > 200 ? `${x.url.slice(0, 200)}...` : x.url} -> ${x.status}`;
    const problems: string[] = [];
    const fail = (message: string) => problems.push(`${where}: ${message}\n  body: ${this.excerpt(x)}`);

    if (x.method === 'OPTIONS') {
      // The public API answers preflights; /_emulator/* has no CORS unless origins are configured for it, so an
      // unanswered preflight falls through to the route's 405 (or the guard's 403).
      if (path.startsWith('/_emulator/') ? ![204, 403, 404, 405].includes(x.status) : x.status !== 204)
        fail('a CORS preflight (OPTIONS) must answer 204 on /v1/media, and 204, 403, 404 or 405 on /_emulator');
      return problems;
    }
    const route = this.routes.find((r) => r.pattern.test(path));
    const method = x.method.toLowerCase() === 'head' ? 'get' : x.method.toLowerCase();
    const operationOf = route?.operations[method];
    // With an admin token, the plane guard refuses every call it would otherwise 404 or 405 whose path means the plane
    // once decoded (/%5Femulator/keys, //_emulator/keys, /v1/media/../../_emulator/keys), as the guard decides it.
    // A plane path that hides a separator or dot segment is refused by the guard before any route; where the path is a
    // documented operation's (a path parameter holding `_emulator%2F..`), the operation lists that 400 like any other.
    if (!operationOf && x.status === 400 && mentionsPlane(path) && hidesSegments(path)) {
      this.expectError(x, 400, 'path_not_canonical', fail);
      return problems;
    }
    if (!operationOf && x.status === 401 && isPlanePath(path)) {
      const code = (() => {
        try {
          return JSON.parse(x.body.toString('utf8')).error?.code;
        } catch {
          return undefined;
        }
      })();
      this.expectError(x, 401, code === 'admin_token_invalid' ? 'admin_token_invalid' : 'admin_token_required', fail);
      return problems;
    }
    if (!route) {
      this.expectError(x, 404, 'route_not_found', fail);
      return problems;
    }
    const operation = route.operations[method];
    if (!operation) {
      // The router decodes path parameters before it knows the method is wrong: a bad escape is a 400 first.
      if (x.status === 400 && badEscape(path)) this.expectError(x, 400, 'bad_request', fail);
      // The public routes answer 405 with Allow; a few emulator-only routes (health, console assets) fall through to the 404.
      else if (x.status === 404) this.expectError(x, 404, 'route_not_found', fail);
      else this.expectError(x, 405, 'method_not_allowed', fail);
      if (x.status === 405 && !x.headers.allow) fail('405 without an Allow header');
      return problems;
    }
    // A fault rule's answer is marked. At a status the operation lists, it is checked against that status, as a client
    // reads it (the fault's envelope must be one of its schemas); at any other, against `default`, which documents
    // fault-rule answers only: an unmarked status must be listed explicitly.
    const injected =
      x.status >= 400 && x.headers['x-emulator-fault'] !== undefined && operation.responses.default !== undefined;
    const key = injected && !operation.responses[String(x.status)] ? 'default' : String(x.status);
    const listed = operation.responses[key] as (ResponseDoc & { $ref?: string }) | undefined;
    // A shared response (`components.responses`) is checked where it is written.
    const shared = listed?.$ref?.replace('#/components/responses/', '');
    const response = shared ? (this.document.components.responses[shared] as ResponseDoc) : listed;
    const at = shared ? ['components', 'responses', shared] : ['paths', route.template, method, 'responses', key];
    if (!response) {
      const listed = Object.keys(operation.responses).filter((k) => k !== 'default');
      fail(
        `undocumented status ${x.status} for ${method.toUpperCase()} ${route.template} (documented: ${listed.join(', ')}${operation.responses.default ? '; any other status only from a fault rule, with X-Emulator-Fault' : ''})`,
      );
      return problems;
    }
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && x.headers[name.toLowerCase()] === undefined) fail(`missing required header ${name}`);
    }
    const type = mediaType(x.headers['content-type']);
    const content = response.content;
    const hasBody = x.body.length > 0 && x.method !== 'HEAD';
    if (!content) {
      if (hasBody) fail(`a body where the document says there is none (content-type ${type || 'none'})`);
      return problems;
    }
    const documented = Object.keys(content);
    const match = documented.find(
      (t) => t === type || t === '*/*' || (t.endsWith('/*') && type.startsWith(t.slice(0, -1))),
    );
    if (!match) {
      fail(`content-type '${type}' is not documented (documented: ${documented.join(', ')})`);
      return problems;
    }
    if (!hasBody || match !== 'application/json') return problems;
    if (x.truncated) return problems;
    let body: unknown;
    try {
      body = JSON.parse(x.body.toString('utf8'));
    } catch {
      fail('the body is not valid JSON');
      return problems;
    }
    const schemaPath = pointer(...at, 'content', match, 'schema');
    const validate = injected ? this.validator(schemaPath) : this.ownValidator(schemaPath, content[match].schema);
    if (!validate)
      fail(`only a fault rule answers ${x.status} with JSON here, and this answer carries no X-Emulator-Fault`);
    else if (!validate(body)) fail(`body does not match the documented schema:\n${this.describe(validate)}`);
    return problems;
  }

  /**
   * The schema at `path` less a fault rule's envelope: what the service itself may answer there, so that an unmarked
   * answer with a code the status does not list still fails. Undefined when only a fault rule answers there.
   */
  private ownValidator(path: string, schema: unknown): ValidateFunction | undefined {
    const { $ref, anyOf } = schema as { $ref?: string; anyOf?: { $ref?: string }[] };
    if ($ref === INJECTED_REF) return undefined;
    if (!anyOf?.some((member) => member.$ref === INJECTED_REF)) return this.validator(path);
    const key = `${path} (own)`;
    let fn = this.compiled.get(key);
    if (!fn) {
      const kept = anyOf.flatMap((member, i) =>
        member.$ref === INJECTED_REF ? [] : [{ $ref: `${DOC_ID}#/${path}/anyOf/${i}` }],
      );
      fn = this.ajv.compile(kept.length === 1 ? kept[0] : { anyOf: kept });
      this.compiled.set(key, fn);
    }
    return fn;
  }

  /** Unmatched routes and methods have fixed answers: the 404 and 405 envelopes. */
  private expectError(x: Exchange, status: number, code: string, fail: (m: string) => void) {
    if (x.status !== status) {
      fail(`no documented operation for this request, so only ${status} ${code} is allowed`);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(x.body.toString('utf8'));
    } catch {
      fail('the body is not valid JSON');
      return;
    }
    const envelope = (body as { error?: unknown })?.error;
    const validate = this.validator(this.errorEnvelope(code));
    if (!envelope || Object.keys(body as object).length !== 1 || !validate(envelope))
      fail(`expected { error: { code: '${code}', message } }\n${this.describe(validate)}`);
  }

  private describe(validate: ValidateFunction): string {
    const errors = validate.errors ?? [];
    // oneOf failures repeat every branch's complaint; the most specific (deepest) ones say what is wrong.
    const depth = (e: { instancePath: string }) => e.instancePath.split('/').length;
    const deepest = Math.max(0, ...errors.map(depth));
    const shown = errors.filter(
      (e) => depth(e) === deepest || e.keyword === 'additionalProperties' || e.keyword === 'required',
    );
    return [
      ...new Set(
        shown.map(
          (e) =>
            `  - ${e.instancePath || '(root)'} ${e.message}${e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'` : ''}${e.keyword === 'const' || e.keyword === 'enum' ? ` ${JSON.stringify(e.params as object)}` : ''}`,
        ),
      ),
    ]
      .slice(0, 12)
      .join('\n');
  }

  private excerpt(x: Exchange): string {
    if (x.method === 'HEAD' || x.body.length === 0) return '(empty)';
    const type = mediaType(x.headers['content-type']);
    if (!type.includes('json') && !type.startsWith('text/'))
      return `(${x.body.length} bytes of ${type || 'unknown type'})`;
    const text = x.body.toString('utf8');
    return text.length > 600 ? `${text.slice(0, 600)}...` : text;
  }
}
