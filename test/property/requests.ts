// Request arbitraries for every endpoint, generated from the OpenAPI document's schemas (biased towards the catalogue), and their mutations.
import fc from 'fast-check';
import catalogueFile from '../../fixtures/catalogue.json' with { type: 'json' };
import { emulatorOpenApiDocument } from '../../src/emulation/openapi/contribution.js';
import { schemaArbitrary } from './schema-arbitrary.js';
import { multipart, png } from '../helpers/images.js';

type Schema = Record<string, any>;

/** A request before serialisation: mutations work on its parts. */
export interface Plan {
  method: string;
  path: string;
  query: [string, string][];
  headers: [string, string][];
  /** A JSON value to send, or raw bytes; undefined for no body. */
  json?: unknown;
  raw?: Buffer;
}

export const DOCUMENT = emulatorOpenApiDocument() as Schema;
const schemas = DOCUMENT.components.schemas as Record<string, Schema>;
const models = catalogueFile.models;

const parameterSchema = (path: string, method: string, name: string): Schema =>
  (DOCUMENT.paths[path][method].parameters as Schema[]).find((p) => p.name === name)!.schema;

/** Query parameters of an operation, each present or not, values from their schemas. */
function queryOf(path: string, method: string): fc.Arbitrary<[string, string][]> {
  const params = ((DOCUMENT.paths[path][method].parameters ?? []) as Schema[]).filter((p) => p.in === 'query');
  return fc
    .tuple(
      ...params.map((p) =>
        fc.option(
          schemaArbitrary(DOCUMENT, p.schema).map((v) => [p.name, String(v)] as [string, string]),
          { nil: undefined },
        ),
      ),
    )
    .map((pairs) => pairs.filter((p): p is [string, string] => p !== undefined));
}

/** A body that names a real model and real options, so requests get past the model lookup and reach pricing and the wallet. */
const catalogueBody = fc.constantFrom(...models).chain((m) =>
  fc.record(
    {
      model_slug: fc.constant(m.slug),
      prompt: fc.string({ unit: 'binary', maxLength: 40 }),
      params: fc
        .subarray(m.option_groups)
        .chain((groups) => fc.record(Object.fromEntries(groups.map((g) => [g.name, fc.constantFrom(...g.values)])))),
    },
    { requiredKeys: ['model_slug', 'prompt'] },
  ),
);

const estimateBody = fc.oneof(
  { arbitrary: catalogueBody, weight: 3 },
  { arbitrary: schemaArbitrary(DOCUMENT, schemas.EstimateRequest), weight: 1 },
);
const generationBody = fc
  .tuple(estimateBody, fc.oneof(fc.integer({ min: 1, max: 1_000_000_000 }), fc.integer({ min: 1, max: 5000 })))
  .map(([body, max]) => ({ ...(body as object), max_credits: max }));
/** Header values are printable ASCII on the wire; the length bounds come from the document. */
const headerValue = (schema: Schema) =>
  fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: schema.minLength ?? 0,
    maxLength: Math.min(schema.maxLength ?? 40, 40),
  });
const idempotencyKey = headerValue(parameterSchema('/v1/media/generations', 'post', 'Idempotency-Key'));
const generationId = fc.oneof(
  fc.constantFrom('gen_000001', 'gen_000002', 'gen_000010'),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);

const plan = (method: string, path: string, extra: Partial<Plan> = {}): Plan => ({
  method,
  path,
  query: [],
  headers: [],
  ...extra,
});

/** Control calls that could install fault rules (a `hang` or `reset` rule would stall the run) are left to their own tests. */
const UNSAFE_CONTROL = new Set([
  'post /_emulator/faults',
  'post /_emulator/scenarios',
  'put /_emulator/state',
  'patch /_emulator/faults/{id}',
]);
const pathValue = fc.oneof(
  fc.constantFrom('gen_000001', 'gen_000002', '1', '2', 'acct_local', 'f1'),
  fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
);

/** Every control operation of the document: path parameters, query and body from its schemas. */
function controlRequests(): fc.Arbitrary<Plan>[] {
  const out: fc.Arbitrary<Plan>[] = [];
  for (const [template, operations] of Object.entries(DOCUMENT.paths as Record<string, Record<string, Schema>>)) {
    if (!template.startsWith('/_emulator/') || template.startsWith('/_emulator/console')) continue;
    for (const [method, op] of Object.entries(operations)) {
      if (UNSAFE_CONTROL.has(`${method} ${template}`)) continue;
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const bodySchema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      out.push(
        fc
          .tuple(
            fc.array(pathValue, { minLength: names.length, maxLength: names.length }),
            queryOf(template, method),
            bodySchema ? fc.option(schemaArbitrary(DOCUMENT, bodySchema), { nil: undefined }) : fc.constant(undefined),
          )
          .map(([values, query, body]) =>
            plan(
              method.toUpperCase(),
              names.reduce((path, name, i) => path.replace(`{${name}}`, values[i]), template),
              {
                query,
                ...(body === undefined
                  ? {}
                  : { json: body, headers: [['Content-Type', 'application/json']] as [string, string][] }),
              },
            ),
          ),
      );
    }
  }
  return out;
}

/** Conforming requests for every public endpoint, the signed-file route, the emulator's own GETs and the control plane. */
export function validRequests(apiKey: string): fc.Arbitrary<Plan> {
  const auth: [string, string] = ['Authorization', `Bearer ${apiKey}`];
  const jsonHeaders: [string, string][] = [auth, ['Content-Type', 'application/json']];
  const upload = fc
    .record({
      model_slug: fc.oneof(fc.constantFrom(...models.map((m) => m.slug)), fc.string({ maxLength: 10 })),
      target_slot: fc.option(fc.constantFrom('start_image', 'first_frame', 'last_frame', 'nope'), { nil: undefined }),
      file: fc.oneof(
        fc.constant(png()),
        fc.constant(png(32, 32)),
        fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b)),
      ),
    })
    .map(({ model_slug, target_slot, file }) => {
      const form = multipart({ model_slug, ...(target_slot ? { target_slot } : {}) }, { data: file });
      return plan('POST', '/v1/media/uploads', { headers: [auth, ['Content-Type', form.contentType]], raw: form.body });
    });
  return fc.oneof(
    queryOf('/v1/media/models', 'get').map((query) => plan('GET', '/v1/media/models', { query, headers: [auth] })),
    estimateBody.map((json) => plan('POST', '/v1/media/estimate', { headers: jsonHeaders, json })),
    fc
      .tuple(generationBody, idempotencyKey)
      .map(([json, key]) =>
        plan('POST', '/v1/media/generations', { headers: [...jsonHeaders, ['Idempotency-Key', key]], json }),
      ),
    queryOf('/v1/media/generations', 'get').map((query) =>
      plan('GET', '/v1/media/generations', { query, headers: [auth] }),
    ),
    generationId.map((id) => plan('GET', `/v1/media/generations/${id}`, { headers: [auth] })),
    fc.constant(plan('GET', '/v1/media/usage', { headers: [auth] })),
    upload,
    fc
      .tuple(
        generationId,
        fc.constantFrom('0.mp4', '1.png', 'x'),
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 70 }),
      )
      .map(([id, name, expires, signature]) =>
        plan('GET', `/files/${id}/${name}`, {
          query: [
            ['expires', expires],
            ['signature', signature],
          ],
        }),
      ),
    fc.constantFrom(plan('GET', '/_emulator/health'), plan('GET', '/openapi.json')),
    ...controlRequests(),
  );
}

const wrongValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
  fc.constantFrom('', ' ', '0', '-1', '1e400', 'NaN', 'null', '__proto__', 'constructor'),
);

/** Strings at and past the limits, empty, and with astral characters, combining marks, NUL and lone surrogates. */
const oddString = fc.oneof(
  fc.constantFrom(
    '',
    '\u0000',
    '\uD800',
    'e\u0301',
    '🎬'.repeat(81),
    'x'.repeat(81),
    'x'.repeat(2501),
    'x'.repeat(50_001),
    'é'.repeat(200_000),
  ),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 32 }),
);

/** Nesting written as text: JSON.stringify itself would overflow the stack long before the emulator is tested. */
const nestedText = (depth: number, object: boolean) =>
  `${(object ? '{"a":' : '[').repeat(depth)}1${(object ? '}' : ']').repeat(depth)}`;
const PLACEHOLDER = '\u0000nested\u0000';

const withMember = (p: Plan, f: (body: Record<string, unknown>, key: string) => void, key: string): Plan => {
  if (p.json === null || typeof p.json !== 'object' || Array.isArray(p.json)) return p;
  const body = { ...(p.json as Record<string, unknown>) };
  const keys = Object.keys(body);
  f(body, keys.length ? keys[Math.abs(hash(key)) % keys.length] : key);
  return { ...p, json: body };
};
const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.codePointAt(0)!) | 0, 7);

const ODD_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/json; charset=latin1',
  'application/merge-patch+json',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/x-www-form-urlencoded',
  '',
  '*/*',
  'application/json, text/plain',
];

/** One mutation of a request: the body, the query, the headers, the method or the path. */
export const mutation: fc.Arbitrary<(p: Plan) => Plan> = fc.oneof(
  fc.tuple(fc.string(), wrongValue).map(
    ([k, v]) =>
      (p: Plan) =>
        withMember(p, (b, key) => (b[key] = v), k),
  ),
  fc.string().map((k) => (p: Plan) => withMember(p, (b, key) => (b[key] = null), k)),
  fc.tuple(fc.string(), oddString).map(
    ([k, s]) =>
      (p: Plan) =>
        withMember(p, (b, key) => (b[key] = s), k),
  ),
  fc.tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })).map(
    ([k, v]) =>
      (p: Plan) =>
        withMember(p, (b) => (b[k || 'extra'] = v), k),
  ),
  fc
    .tuple(fc.string(), fc.integer({ min: 1, max: 100_000 }), fc.boolean(), fc.boolean())
    .map(([k, depth, object, whole]) => (p: Plan) => {
      const text = nestedText(depth, object);
      if (whole) return { ...p, json: undefined, raw: Buffer.from(text) };
      const withPlaceholder = withMember(p, (b, key) => (b[key] = PLACEHOLDER), k);
      if (withPlaceholder === p) return p;
      return {
        ...p,
        json: undefined,
        raw: Buffer.from(JSON.stringify(withPlaceholder.json).replace(JSON.stringify(PLACEHOLDER), text)),
      };
    }),
  fc.constantFrom<unknown>(null, [], 'text', 0, true, {}).map((v) => (p: Plan) => ({ ...p, json: v, raw: undefined })),
  fc
    .oneof(
      fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
      fc.constantFrom(
        Buffer.from([0xff, 0xfe, 0x00]),
        Buffer.from('{"model_slug":'),
        Buffer.from('\uFEFF{}'),
        Buffer.from('{"a":NaN}'),
        Buffer.from('[1,2'),
        Buffer.from('{"a":1}{"b":2}'),
      ),
    )
    .map((raw) => (p: Plan) => ({ ...p, json: undefined, raw })),
  fc
    .tuple(
      fc.constantFrom('limit', 'kind', 'status', 'cursor', 'from', 'model_slug', 'expires', 'a[]', 'limit[x]'),
      fc.oneof(oddString, fc.constantFrom('0', '101', '1.5', 'abc', '2024-13-01', 'image')),
    )
    .map(
      ([name, value]) =>
        (p: Plan): Plan => ({ ...p, query: [...p.query, ...p.query.filter(([n]) => n === name), [name, value]] }),
    ),
  fc.constantFrom(...ODD_CONTENT_TYPES).map(
    (type) =>
      (p: Plan): Plan => ({
        ...p,
        headers: [...p.headers.filter(([n]) => n.toLowerCase() !== 'content-type'), ['Content-Type', type]],
      }),
  ),
  fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'compress', 'x-unknown').map(
    (enc) =>
      (p: Plan): Plan => ({ ...p, headers: [...p.headers, ['Content-Encoding', enc]] }),
  ),
  fc
    .constantFrom(
      '',
      'Bearer',
      'Bearer ',
      'bearer sk-media-nope',
      'Basic abc',
      'Bearer sk-media-local-emulator-key extra',
      'Bearer \u00e9',
    )
    .map(
      (value) =>
        (p: Plan): Plan => ({
          ...p,
          headers: [...p.headers.filter(([n]) => n !== 'Authorization'), ['Authorization', value]],
        }),
    ),
  fc
    .oneof(
      oddString.filter((s) => /^[\t\x20-\x7e]*$/.test(s)),
      fc.constantFrom('short', 'k'.repeat(201)),
    )
    .map(
      (value) =>
        (p: Plan): Plan => ({ ...p, headers: [...p.headers, ['Idempotency-Key', value]] }),
    ),
  fc
    .constantFrom(
      ['Accept', 'text/html'],
      ['Expect', '100-continue'],
      ['X-Forwarded-Host', 'evil.example'],
      ['X-Forwarded-Proto', 'gopher'],
      ['Range', 'bytes=99999999-'],
    )
    .map(
      (h) =>
        (p: Plan): Plan => ({
          ...p,
          headers: [...p.headers, h as [string, string]],
        }),
    ),
  fc
    .constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS')
    .map((method) => (p: Plan) => ({ ...p, method })),
  fc
    .constantFrom(
      (s: string) => `${s}/`,
      (s: string) => s.replace('/v1', '//v1'),
      (s: string) => `${s}/%`,
      (s: string) => s.toUpperCase(),
      (s: string) => `${s}/%E0%A4%A`,
    )
    .map((f) => (p: Plan) => ({
      ...p,
      path: f(p.path),
    })),
);

/** Cases every run tries first, whatever the seed: the hostile inputs that broke the emulator once. */
export function regressionExamples(apiKey: string): Plan[] {
  const auth: [string, string] = ['Authorization', `Bearer ${apiKey}`];
  const json: [string, string] = ['Content-Type', 'application/json'];
  return [
    plan('POST', '/_emulator/clock/advance', { headers: [json], json: { by: 1e300 } }),
    plan('POST', '/_emulator/clock/advance', { headers: [json], json: { by: '99999999999d' } }),
    plan('POST', '/v1/media/estimate', { headers: [auth, json], raw: Buffer.from(nestedText(100_000, false)) }),
    plan('POST', '/v1/media/generations', {
      headers: [auth, json, ['Idempotency-Key', 'deep-nesting-1']],
      raw: Buffer.from(
        `{"model_slug":"motion-lite-v1","prompt":"p","max_credits":5,"params":${nestedText(50_000, true)}}`,
      ),
    }),
    plan('POST', '/v1/media/uploads', {
      headers: [auth, ['Content-Type', 'multipart/form-data']],
      raw: Buffer.from('--x\r\nContent-Disposition: form-data; name="model_slug"\r\n\r\nmotion'),
    }),
    plan('POST', '/v1/media/generations', {
      headers: [auth, ['Content-Type', 'text/plain']],
      raw: Buffer.from('not json'),
    }),
    plan('GET', '/v1/media/generations/%E0%A4%A', { headers: [auth] }),
  ];
}

/** A valid request with one to three mutations applied. */
export function mutatedRequests(apiKey: string): fc.Arbitrary<Plan> {
  return fc
    .tuple(validRequests(apiKey), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([p, ms]) => ms.reduce((acc, m) => m(acc), p));
}

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, where encodeURIComponent would throw). */
const percent = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** The bytes on the wire. */
export function serialise(p: Plan): { method: string; path: string; headers: [string, string][]; body?: Buffer } {
  const query = p.query.length ? `?${p.query.map(([k, v]) => `${percent(k)}=${percent(v)}`).join('&')}` : '';
  const body = p.raw ?? (p.json === undefined ? undefined : Buffer.from(JSON.stringify(p.json) ?? ''));
  return { method: p.method, path: `${p.path}${query}`, headers: p.headers, body };
}

/** What a failing case looks like in the report: short, but enough to replay. */
export function describePlan(p: Plan): string {
  const s = serialise(p);
  const body = s.body
    ? s.body.length > 300
      ? `${s.body.subarray(0, 300).toString('utf8')}... (${s.body.length} bytes)`
      : s.body.toString('utf8')
    : '';
  return `${s.method} ${s.path.slice(0, 300)} ${JSON.stringify(s.headers.map(([n, v]) => [n, v.slice(0, 60)]))} ${body}`;
}
