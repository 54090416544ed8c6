// The document as generated clients and fuzzers read it: binary bodies, every status answered, control inputs as strict
// as the server (each bound checked against what the server does with a value just outside it).
import { describe, expect, it } from 'vitest';
import { emulatorOpenApiDocument } from '../../src/emulation/openapi/contribution.js';
import { client, makeEmulator } from '../helpers/emulator.js';

type Schema = Record<string, any>;
const doc = emulatorOpenApiDocument() as Schema;
const schemas = doc.components.schemas as Record<string, Schema>;
const operations = Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ path, method, op })),
);
const queryParam = (path: string, name: string) =>
  (doc.paths[path].get.parameters as Schema[]).find((p) => p.name === name)!.schema;

describe('binary bodies and answers', () => {
  it('marks the upload file as binary, with the image types as its encoding', () => {
    expect(schemas.UploadForm.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    const body = doc.paths['/v1/media/uploads'].post.requestBody.content['multipart/form-data'];
    expect(body.encoding.file.contentType).toContain('image/png');
  });

  it('gives the 200 and 206 of /files a binary schema in every output media type', () => {
    const responses = doc.paths['/files/{generation_id}/{name}'].get.responses;
    for (const status of ['200', '206']) {
      const content = Object.values(responses[status].content) as Schema[];
      expect(content.length).toBeGreaterThan(3);
      for (const media of content) expect(media.schema).toEqual({ type: 'string', format: 'binary' });
    }
  });
});

describe('statuses', () => {
  it('lists the shared 405 on every operation, and route_not_found and path_not_canonical where a path parameter could miss', () => {
    expect(doc.components.responses.MethodNotAllowed.headers.Allow.required).toBe(true);
    for (const { path, op } of operations) {
      // A fault rule's 405 (on /v1/media and downloads) carries no Allow: those operations name the shared response
      // that says so.
      const faulted = path.startsWith('/v1/media/') || path.startsWith('/files/');
      const shared = faulted ? 'MethodNotAllowedOrFault' : 'MethodNotAllowed';
      expect(op.responses['405'], path).toEqual({ $ref: `#/components/responses/${shared}` });
      if (path.includes('{')) {
        expect(JSON.stringify(op.responses['404']), path).toContain('ErrorEnvelope.route_not_found');
        expect(JSON.stringify(op.responses['400']), path).toContain('ErrorEnvelope.path_not_canonical');
      } else expect(JSON.stringify(op.responses['400'] ?? {}), path).not.toContain('path_not_canonical');
    }
  });

  it('answers DELETE /v1/media/models with that 405 and an Allow header', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).raw.delete('/v1/media/models');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('keeps no error component that no operation answers', () => {
    const text = JSON.stringify([doc.paths, doc.components.responses, schemas]);
    for (const name of Object.keys(schemas).filter((n) => n.startsWith('Error')))
      expect(text, name).toContain(`"#/components/schemas/${name}"`);
    const answered = JSON.stringify([doc.paths, doc.components.responses]);
    for (const name of Object.keys(schemas).filter((n) => n.startsWith('ErrorEnvelope.')))
      expect(answered, name).toContain(`"#/components/schemas/${name}"`);
  });
});

describe('control inputs as strict as the server', () => {
  it('bounds limit and journal_limit as the server does, and the server refuses one below', async () => {
    expect(queryParam('/_emulator/summary', 'journal_limit')).toEqual({ type: 'integer', minimum: 1, maximum: 200 });
    expect(queryParam('/_emulator/journal', 'limit')).toEqual({ type: 'integer', minimum: 1, maximum: 10_000 });
    expect(queryParam('/_emulator/generations', 'limit')).toEqual({ type: 'integer', minimum: 1, maximum: 1000 });
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).raw.get('/_emulator/summary?journal_limit=0');
    expect(res.status).toBe(422);
  });

  it('requires the bodies the server requires, and only those', () => {
    expect(doc.paths['/_emulator/faults/{id}'].patch.requestBody.required).toBe(true);
    expect(doc.paths['/_emulator/clock/advance'].post.requestBody.required).toBe(true);
    expect(doc.paths['/_emulator/keys'].post.requestBody.required).toBe(false);
    expect(doc.paths['/_emulator/state'].put.requestBody.required).toBe(true);
  });

  it('gives durations the pattern and range parseDuration reads', () => {
    const [text, ms] = schemas.AdvanceRequest.properties.by.anyOf as Schema[];
    const pattern = new RegExp(text.pattern);
    for (const ok of ['30s', '250ms', '1h30m', '1.5S', '1000']) expect(pattern.test(ok), ok).toBe(true);
    for (const bad of ['30x', 's', '1h30', '-5s']) expect(pattern.test(bad), bad).toBe(false);
    expect(ms).toMatchObject({ type: 'number', minimum: 0, maximum: 100 * 365 * 86_400_000 });
  });

  it("gives NewKey.secret the accounts store's pattern and amounts the server's safe-integer range", () => {
    expect(new RegExp(schemas.NewKey.properties.secret.pattern).test('sk-media-abcd')).toBe(true);
    expect(new RegExp(schemas.NewKey.properties.secret.pattern).test('sk-other-abcd')).toBe(false);
    const [set, add] = schemas.BalanceChange.anyOf as Schema[];
    expect(set.properties.set).toEqual({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
    expect(add.properties.add.maximum).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('closes State.domain and ScenarioLoad.scenario with the schemas the server checks them with', () => {
    expect(schemas.State.properties.domain.required).toEqual(
      expect.arrayContaining(['accounts', 'keys', 'ledger', 'generations', 'uploads', 'idempotency']),
    );
    const inline = (schemas.ScenarioLoad.anyOf as Schema[]).find((b) => b.properties.scenario)!;
    expect(inline.properties.scenario).toEqual({ $ref: '#/components/schemas/Scenario' });
  });

  it("checks a scenario's rules, steps, a rule id and the journal's `since` as the server does", () => {
    expect(schemas.Scenario.properties.faults.items).toEqual({ $ref: '#/components/schemas/FaultRule' });
    const createKey = (schemas.Scenario.properties.steps.items.oneOf as Schema[]).find(
      (step) => step.properties.op.const === 'create_key',
    )!;
    // The step runs POST /_emulator/keys, whose name is 1-200 characters.
    expect(createKey.properties.name).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(schemas.FaultRule.properties.id.not).toEqual({ pattern: '^\\.+$' });
    const since = queryParam('/_emulator/journal', 'since').anyOf as Schema[];
    expect(since.map((s) => s.format ?? s.pattern ?? s.type)).toEqual(['date-time', '^\\d{1,15}$', 'integer']);
  });

  it("closes a state's envelope and its control member as the import does, `control.scenario` optional", () => {
    expect(schemas.State.additionalProperties).toBe(false);
    expect(schemas.State.required).toEqual([
      'format',
      'version',
      'emulator_version',
      'exported_at',
      'domain',
      'control',
    ]);
    expect(schemas.State.properties.control).toMatchObject({
      additionalProperties: false,
      required: ['faults', 'journal'],
    });
    expect(schemas.State.properties.control.properties.journal.additionalProperties).toBe(false);
  });

  it('gives Idempotency-Key an ASCII pattern: visible characters, inner spaces', () => {
    const header = (doc.paths['/v1/media/generations'].post.parameters as Schema[]).find(
      (p) => p.name === 'Idempotency-Key',
    )!.schema;
    const pattern = new RegExp(header.pattern);
    expect(header).toMatchObject({ minLength: 8, maxLength: 200 });
    expect(pattern.test('order-42 retry-1')).toBe(true);
    expect(pattern.test(' leading')).toBe(false);
    expect(pattern.test('clé-unique')).toBe(false);
  });
});
