// Property, our own Schemathesis run: requests generated from the served /openapi.json alone (parameters, JSON and
// multipart bodies, for every public operation) are never answered 5xx, and every answer validates against it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/index.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { ContractChecker } from '../helpers/contract-checker.js';
import { startSharedEmulator } from '../helpers/emulator.js';
import { png } from '../helpers/images.js';
import { rawClient, type RawClient, type RawRequest } from '../helpers/raw-http.js';
import { isRealService500 } from '../helpers/real-500.js';
import { PARAMETERS, TIMEOUT } from './runs.js';
import { schemaArbitrary } from './schema-arbitrary.js';

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Schema;
}

let running: RunningEmulator;
let http: RawClient;
let document: Schema;
let checker: ContractChecker;
/** Slugs from GET /v1/media/models, as a stateful run links one answer to the next request. */
let slugs: string[];

beforeAll(async () => {
  running = await startSharedEmulator({ seed: 11, timing: 'manual', ffmpegPath: false, log: () => {} });
  // fetch, not the keep-alive client: compiling the checker can outlast the server's keep-alive timeout.
  document = (await (await fetch(`${running.url}/openapi.json`)).json()) as Schema;
  checker = new ContractChecker(document as OpenApiDocument);
  http = rawClient(running.url);
  const models = await fetch(`${running.url}/v1/media/models`, {
    headers: { Authorization: `Bearer ${running.apiKey}` },
  });
  slugs = ((await models.json()) as { models: { slug: string }[] }).models.map((m) => m.slug);
});

afterAll(async () => {
  http.close();
  await running.close();
});

const BOUNDARY = 'documentRequestsBoundary';
/** Header values must be ones an HTTP client can send: visible ASCII, unless the schema says more. */
const headerText = fc.stringMatching(/^[!-~]{1,24}$/);

function multipart(fields: [string, string | Buffer][]): Buffer {
  const parts = fields.map(([name, value]) => {
    const file = Buffer.isBuffer(value) ? `; filename="${name}.png"\r\nContent-Type: image/png` : '';
    return Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${file}\r\n\r\n`),
      Buffer.isBuffer(value) ? value : Buffer.from(value),
      Buffer.from('\r\n'),
    ]);
  });
  return Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

/** A request to one operation, every part of it drawn from the operation's schemas. */
function requestFor({ method, path, op }: Operation, apiKey: string): fc.Arbitrary<RawRequest> {
  const value = (schema: Schema) => schemaArbitrary(document, schema);
  const parameters = (op.parameters ?? []) as Schema[];
  const drawn = (where: string) =>
    fc.tuple(
      ...parameters
        .filter((p) => p.in === where)
        .map((p) => {
          const arbitrary = where === 'header' && !p.schema.pattern ? headerText : value(p.schema);
          const pair = arbitrary.map((v): [string, string] => [p.name, String(v)]);
          return p.required ? pair : fc.option(pair, { nil: undefined });
        }),
    );
  const content = (op.requestBody?.content ?? {}) as Record<string, { schema: Schema }>;
  const body: fc.Arbitrary<{ type?: string; bytes?: Buffer }> = content['application/json']
    ? fc
        .tuple(value(content['application/json'].schema), knownSlug())
        .map(([v, slug]) => ({ type: 'application/json', bytes: Buffer.from(JSON.stringify(withSlug(v, slug))) }))
    : content['multipart/form-data']
      ? formBody(content['multipart/form-data'].schema)
      : fc.constant({});
  return fc.tuple(drawn('path'), drawn('query'), drawn('header'), body).map(([pathParams, query, headers, b]) => {
    let url = path;
    for (const pair of pathParams) if (pair) url = url.replace(`{${pair[0]}}`, encodeURIComponent(pair[1]));
    const search = new URLSearchParams(query.filter((q): q is [string, string] => q !== undefined)).toString();
    const all: [string, string][] = headers.filter((h): h is [string, string] => h !== undefined);
    if (op.security?.some((s: Schema) => 'apiKey' in s)) all.push(['Authorization', `Bearer ${apiKey}`]);
    if (b.type) all.push(['Content-Type', b.type]);
    return {
      method: method.toUpperCase(),
      path: search ? `${url}?${search}` : url,
      headers: all,
      ...(b.bytes ? { body: b.bytes } : {}),
    };
  });
}

/** Half the time, a slug the catalogue has: without one every body stops at 404 model_not_found. */
const knownSlug = () => fc.option(fc.constantFrom(...slugs), { nil: undefined });

function withSlug(value: unknown, slug: string | undefined): unknown {
  if (slug === undefined || typeof value !== 'object' || value === null || !('model_slug' in value)) return value;
  return { ...value, model_slug: slug };
}

/** A multipart body: binary members are images (a real PNG or the schema's bytes), the rest text parts. */
function formBody(schema: Schema): fc.Arbitrary<{ type: string; bytes: Buffer }> {
  const resolved = schema.$ref ? document.components.schemas[String(schema.$ref).split('/').pop()!] : schema;
  const members = Object.entries(resolved.properties as Record<string, Schema>);
  const required = new Set<string>(resolved.required ?? []);
  return fc
    .tuple(
      ...members.map(([name, member]) => {
        const part =
          member.format === 'binary'
            ? fc.oneof(
                fc.constant(png(96, 80)),
                fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b)),
              )
            : name === 'model_slug'
              ? fc.oneof(fc.constantFrom(...slugs), schemaArbitrary(document, member).map(String))
              : schemaArbitrary(document, member).map(String);
        const pair = part.map((v): [string, string | Buffer] => [name, v]);
        return required.has(name) ? pair : fc.option(pair, { nil: undefined });
      }),
    )
    .map((pairs) => ({
      type: `multipart/form-data; boundary=${BOUNDARY}`,
      bytes: multipart(pairs.filter((p): p is [string, string | Buffer] => p !== undefined)),
    }));
}

function publicOperations(): Operation[] {
  return Object.entries(document.paths as Record<string, Record<string, Schema>>)
    .filter(([path]) => path.startsWith('/v1/media/') || path.startsWith('/files/'))
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })));
}

describe('requests generated from the served document', () => {
  it('covers every public operation', () => {
    expect(publicOperations().map((o) => `${o.method} ${o.path}`)).toEqual([
      'get /v1/media/models',
      'post /v1/media/estimate',
      'post /v1/media/generations',
      'get /v1/media/generations',
      'get /v1/media/generations/{generation_id}',
      'get /v1/media/usage',
      'post /v1/media/uploads',
      'get /files/{generation_id}/{name}',
    ]);
  });

  it('are never answered 5xx, and every answer validates against the document', {
    timeout: TIMEOUT(60_000),
  }, async () => {
    const requests = fc.oneof(...publicOperations().map((o) => requestFor(o, running.apiKey)));
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const res = await http.send(request);
        seen.add(`${request.method} ${res.status}`);
        const where = `${request.method} ${request.path}\n  -> ${res.status} ${res.body.subarray(0, 300).toString('utf8')}`;
        const real500 = isRealService500(
          { status: res.status, contentType: String(res.headers['content-type']), body: res.body.toString('utf8') },
          request.body,
        );
        if (res.status >= 500 && !real500) throw new Error(`a 5xx answer:\n  ${where}`);
        const violations = checker.check({
          method: request.method,
          url: request.path,
          status: res.status,
          headers: res.headers,
          body: res.body,
        });
        if (violations.length && !real500)
          throw new Error(`breaks the document:\n  ${where}\n${violations.join('\n')}`);
      }),
      PARAMETERS(400),
    );
    // Not only refusals: the generated requests reach the answers that carry data too.
    expect([...seen]).toEqual(expect.arrayContaining(['GET 200', 'POST 200', 'POST 202', 'GET 404', 'POST 422']));
  });
});
