// The OpenAPI document itself: valid 3.1, committed copy up to date, spec bounds present, every route and error code documented.
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ERROR_STATUSES } from '../../src/http/error-statuses.js';
import { emulatorOpenApiDocument } from '../../src/emulation/openapi/contribution.js';
import { ERROR_CODE_DOCS } from '../../src/openapi/error-codes.js';
import { DOCUMENT_PATH, serialiseDocument } from '../../scripts/write-openapi.js';
import { client, makeEmulator } from '../helpers/emulator.js';
import { routesOf } from '../../src/testing.js';

type Schema = Record<string, any>;
const doc = emulatorOpenApiDocument() as Schema;
const schemas = doc.components.schemas as Record<string, Schema>;
const nonNull = (s: Schema) => (s.anyOf ? s.anyOf.find((b: Schema) => b.type !== 'null') : s);
/** The components an answer's JSON schema refers to, in order. */
const refsAt = (response: Schema): string[] => {
  const schema = response.content['application/json'].schema;
  return (schema.anyOf ?? [schema]).map((member: Schema) => member.$ref);
};
const param = (path: string, method: string, name: string) =>
  (doc.paths[path][method].parameters as Schema[]).find((p) => p.name === name)!.schema;

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is committed as docs/openapi.json exactly as generated (run `npm run openapi` after changing a schema)', () => {
    expect(readFileSync(DOCUMENT_PATH, 'utf8')).toBe(serialiseDocument());
  });

  it('carries the request bounds of spec sections 4 and 8, generated from the validation schemas', () => {
    const body = schemas.GenerationRequest;
    expect(body.additionalProperties).toBe(false);
    expect(body.required).toEqual(['model_slug', 'prompt', 'max_credits']);
    expect(body.properties.model_slug).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 80,
      pattern: '^[a-zA-Z0-9][a-zA-Z0-9._-]*$',
    });
    expect(body.properties.prompt).toMatchObject({ type: 'string', maxLength: 50_000 });
    expect(nonNull(body.properties.params)).toMatchObject({
      type: 'object',
      maxProperties: 40,
      additionalProperties: { type: 'string' },
    });
    expect(nonNull(body.properties.texts)).toMatchObject({ maxProperties: 20 });
    expect(nonNull(body.properties.refs)).toMatchObject({ type: 'array', maxItems: 50, items: { type: 'string' } });
    expect(nonNull(body.properties.ref_slots)).toMatchObject({
      maxProperties: 20,
      additionalProperties: { type: 'array', items: { type: 'string' } },
    });
    expect(nonNull(body.properties.ref_roles)).toMatchObject({
      maxProperties: 50,
      additionalProperties: { enum: ['first', 'last'] },
    });
    expect(body.properties.max_credits).toMatchObject({ type: 'integer', minimum: 1, maximum: 1_000_000_000 });
    expect(schemas.EstimateRequest.properties.max_credits).toBeUndefined();
    expect(param('/v1/media/generations', 'post', 'Idempotency-Key')).toMatchObject({ minLength: 8, maxLength: 200 });
    expect(param('/v1/media/generations', 'get', 'limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(param('/v1/media/generations', 'get', 'cursor')).toMatchObject({ maxLength: 300 });
    expect(param('/v1/media/generations', 'get', 'model_slug')).toMatchObject({ maxLength: 80 });
    expect(param('/v1/media/generations', 'get', 'from')).toMatchObject({ type: 'string', format: 'date-time' });
    expect(param('/v1/media/generations', 'get', 'status')).toMatchObject({
      enum: ['pending', 'running', 'completed', 'failed'],
    });
    expect(param('/v1/media/models', 'get', 'kind')).toMatchObject({ enum: ['image', 'video', 'music', '3d'] });
    expect(schemas.UploadForm.required).toEqual(['file', 'model_slug']);
    // An empty form value is read as absent, so the server refuses `model_slug=` (422 missing).
    expect(schemas.UploadForm.properties.model_slug).toMatchObject({ minLength: 1, maxLength: 80 });
  });

  it('documents the 422 detail item with input and ctx optional (spec 7.3), and every code per status', () => {
    expect(schemas.ValidationItem.required).toEqual(['type', 'loc', 'msg']);
    expect(Object.keys(schemas.ValidationItem.properties)).toEqual(['type', 'loc', 'msg', 'input', 'ctx']);
    expect(schemas.ValidationItem.additionalProperties).toBe(false);
    const submit = doc.paths['/v1/media/generations'].post.responses;
    expect(Object.keys(submit)).toEqual([
      '202',
      '400',
      '401',
      '402',
      '403',
      '404',
      '405',
      '408',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
      '507',
      'default',
    ]);
    expect(submit['507'].description).toMatch(/^`storage_full`, an answer injected by a fault rule/);
    expect(submit.default.headers['X-Emulator-Fault'].required).toBe(true);
    expect(refsAt(submit['402'])).toEqual([
      '#/components/schemas/ErrorEnvelope.max_credits_exceeded',
      '#/components/schemas/ErrorEnvelope.insufficient_credits',
      '#/components/schemas/InjectedFault',
    ]);
    expect(schemas['Error.insufficient_credits'].properties).toHaveProperty('wallet_balance');
    expect(schemas['ErrorEnvelope.insufficient_credits'].properties.error).toEqual({
      $ref: '#/components/schemas/Error.insufficient_credits',
    });
    expect(submit['429'].headers).toHaveProperty('Retry-After');
    expect(submit['503'].description).toMatch(/^`server_busy`, an answer injected by a fault rule/);
    expect(submit['503'].headers).toHaveProperty('Retry-After');
  });

  it('lets every error status of a /v1/media operation answer the fault envelope, 500 as JSON first', () => {
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
      if (!path.startsWith('/v1/media/')) continue;
      for (const [method, op] of Object.entries(ops))
        for (const [status, response] of Object.entries(op.responses as Record<string, Schema>)) {
          if (Number(status) < 400 || status === '405') continue;
          expect(refsAt(response), `${method} ${path} ${status}`).toContain('#/components/schemas/InjectedFault');
          expect(Object.keys(response.content)[0], `${method} ${path} ${status}`).toBe('application/json');
        }
      for (const op of Object.values(ops))
        expect(op.responses['405']).toEqual({ $ref: '#/components/responses/MethodNotAllowedOrFault' });
    }
    const submit500 = doc.paths['/v1/media/generations'].post.responses['500'];
    // The real service's own 500 stays documented, after the JSON a generated client reads.
    expect(Object.keys(submit500.content)).toEqual(['application/json', 'text/plain']);
    // The control plane has no fault rules: no fault envelope there.
    expect(JSON.stringify(doc.paths['/_emulator/faults'])).not.toContain('InjectedFault');
  });

  it('refers to one shared component per error shape, never an envelope written inline', () => {
    const inline: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Schema>>))
      for (const [method, op] of Object.entries(ops))
        for (const [status, response] of Object.entries(op.responses as Record<string, Schema>))
          for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Schema>)) {
            const members = media.schema.anyOf ?? media.schema.oneOf ?? [media.schema];
            if (type === 'application/json' && Number(status) >= 400 && members.some((m: Schema) => !m.$ref))
              inline.push(`${method} ${path} ${status}`);
          }
    expect(inline).toEqual([]);
  });

  it('describes every code of the status table, and nothing else', () => {
    const table = Object.keys(DEFAULT_ERROR_STATUSES).sort();
    const documented = Object.keys(ERROR_CODE_DOCS)
      .filter((c) => !ERROR_CODE_DOCS[c as keyof typeof ERROR_CODE_DOCS].httpStatuses)
      .sort();
    expect(documented).toEqual(table);
  });

  it('moves a code to the status an errorStatuses override gives it', () => {
    const moved = emulatorOpenApiDocument({ errorStatuses: { insufficient_credits: 400 } }) as Schema;
    const responses = moved.paths['/v1/media/generations'].post.responses;
    expect(refsAt(responses['400'])).toContain('#/components/schemas/ErrorEnvelope.insufficient_credits');
    expect(refsAt(responses['402'])).toEqual([
      '#/components/schemas/ErrorEnvelope.max_credits_exceeded',
      '#/components/schemas/InjectedFault',
    ]);
  });

  it('documents every route the front door takes, under the operationId the route table gives it', () => {
    const routes = routesOf(makeEmulator());
    expect(routes.map((r) => r.path)).toContain('/v1/media/generations/:generation_id');
    expect(routes.map((r) => r.path)).toContain('/openapi.json');
    const missing = routes.flatMap((route) => {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const documented = (doc.paths[path] as Record<string, { operationId?: string }> | undefined)?.[
        route.method.toLowerCase()
      ];
      return documented?.operationId === route.operation
        ? []
        : [`${route.method} ${path} ${route.operation} (documented: ${documented?.operationId ?? 'nothing'})`];
    });
    expect(missing).toEqual([]);
  });

  it("is served at GET /openapi.json with the emulator's own status table", async () => {
    const emulator = makeEmulator({ errorStatuses: { model_not_found: 400 } });
    const res = await client(emulator).raw.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body).toEqual(
      JSON.parse(JSON.stringify(emulatorOpenApiDocument({ errorStatuses: { model_not_found: 400 } }))),
    );
  });

  it('documents only health and the API when the control plane is off', async () => {
    const emulator = makeEmulator({ controlPlane: false });
    const res = await client(emulator).raw.get('/openapi.json');
    const paths = Object.keys(res.body.paths);
    expect(paths).toContain('/_emulator/health');
    expect(paths).toContain('/v1/media/generations');
    expect(paths.filter((p) => p.startsWith('/_emulator/') && p !== '/_emulator/health')).toEqual([]);
  });
});
