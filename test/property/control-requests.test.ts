// Property, Schemathesis' checks on the control plane: requests to /_emulator/* drawn from the served /openapi.json,
// bodies the document accepts and bodies it refuses (each made by breaking an accepted one). Every answer has a
// documented status and validates; no body the document refuses is accepted; no body it accepts is refused for its
// shape, except by the checks a JSON Schema cannot say, each named below.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/index.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { ContractChecker } from '../helpers/contract-checker.js';
import { startSharedEmulator } from '../helpers/emulator.js';
import { rawClient, type RawClient } from '../helpers/raw-http.js';
import { PARAMETERS, TIMEOUT } from './runs.js';
import { schemaArbitrary } from './schema-arbitrary.js';

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Schema;
}

/** The codes a control body's or query's refusal carries (422). */
const SHAPE_REFUSALS = new Set(['invalid_control_request', 'invalid_fault_rule', 'invalid_scenario', 'invalid_state']);

/**
 * What the server checks beyond the document, because JSON Schema cannot say it (a pattern that must compile, a
 * latency's members that depend on its distribution, a minimum no larger than its maximum, references between parts
 * of a state, a duration's total): a refusal whose every problem is one of these is no disagreement.
 */
const BEYOND_SCHEMA = [
  /is not a valid regular expression/,
  /repeats too much to compile cheaply/,
  /is required for a (fixed|uniform|lognormal) latency/,
  /must not exceed max_ms/,
  /must be a duration of at most 100 years/,
  /needs pending, running or total/,
  // A fault rule no request could fire (fault-reach.ts): whether its route, method and matchers meet an operation.
  /matches no (\w+ )?route of the API|no route of the API takes|acts when a submission is accepted|never tells? a rule/,
  // References to what the emulator holds: its catalogue, the ids already in use.
  /no model '.*' in the catalogue/s,
  /duplicate rule id/,
  // A state's kept sections: the document leaves their items open; each is checked as the emulator keeps it.
  /^control\.(faults|journal|scenario)\b/,
];

let running: RunningEmulator;
let http: RawClient;
let document: Schema;
let checker: ContractChecker;
let ajv: Ajv2020;
/** Path parameter values that name something, besides the arbitrary strings the schema allows. */
let known: string[];
/** Bodies the server made, where the schema alone rarely draws one that gets past its other checks: an export. */
const seeds: Record<string, unknown> = {};

beforeAll(async () => {
  running = await startSharedEmulator({ seed: 12, timing: 'manual', ffmpegPath: false, log: () => {} });
  document = (await (await fetch(`${running.url}/openapi.json`)).json()) as Schema;
  checker = new ContractChecker(document as OpenApiDocument);
  ajv = new Ajv2020({ strict: false, allErrors: false });
  // Formats are part of the document (a fuzzer checks them): `date-time` and the like.
  ((addFormatsModule as unknown as { default?: (a: Ajv2020) => void }).default ?? (addFormatsModule as never))(ajv);
  ajv.addSchema({ ...document, $id: 'doc' });
  http = rawClient(running.url);
  const accepted = await fetch(`${running.url}/v1/media/generations`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${running.apiKey}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': 'control-requests-1',
    },
    body: JSON.stringify({ model_slug: 'still-sketch-v1', prompt: 'a lighthouse', max_credits: 100 }),
  });
  const { generation } = (await accepted.json()) as { generation: { id: string } };
  known = [generation.id, 'acct_local', '1', '2', 'flaky-network'];
  seeds['put /_emulator/state'] = await (await fetch(`${running.url}/_emulator/state`)).json();
});

afterAll(async () => {
  http.close();
  await running.close();
});

const validators = new Map<string, ValidateFunction>();
function documentAccepts(pointer: string, value: unknown): boolean {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `doc#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate(value);
}

const pointerPart = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A body the document accepts, broken one way: an unknown member, a member of another type, a required one gone. */
function broken(value: unknown): fc.Arbitrary<unknown> {
  const ways: fc.Arbitrary<unknown>[] = [fc.constantFrom([], 'text', 7, null)];
  if (isRecord(value)) {
    const record = value;
    ways.push(fc.constant({ ...record, not_a_member: 1 }));
    const keys = Object.keys(record);
    if (keys.length) {
      const key = fc.constantFrom(...keys);
      ways.push(
        fc
          .tuple(key, fc.constantFrom<unknown>('x', -1, 1.5, true, null, [], {}))
          .map(([k, v]) => ({ ...record, [k]: v })),
      );
      ways.push(key.map((k) => Object.fromEntries(Object.entries(record).filter(([name]) => name !== k))));
      // One level down: a member no nested object has (`control.journal.extra`).
      const nested = keys.filter((k) => isRecord(record[k]));
      if (nested.length)
        ways.push(
          fc.constantFrom(...nested).map((k) => ({ ...record, [k]: { ...(record[k] as object), not_a_member: 1 } })),
        );
    }
  }
  return fc.oneof(...ways);
}

interface Drawn {
  method: string;
  path: string;
  template: string;
  body?: unknown;
  /** Where the body's schema is in the document, when the operation has one. */
  bodyPointer?: string;
  query: [string, string][];
  queryPointers: Record<string, string>;
}

function requestFor({ method, path, op }: Operation): fc.Arbitrary<Drawn> {
  const parameters = (op.parameters ?? []) as Schema[];
  const base = `/paths/${pointerPart(path)}/${method}`;
  const pathValues = fc.tuple(
    ...parameters
      .filter((p) => p.in === 'path')
      .map((p) =>
        fc
          .oneof(fc.constantFrom(...known), schemaArbitrary(document, p.schema))
          .map((v) => [p.name, String(v)] as const),
      ),
  );
  const queryPointers: Record<string, string> = {};
  const query = fc.tuple(
    ...parameters
      .map((p, i) => ({ p, i }))
      .filter(({ p }) => p.in === 'query')
      .map(({ p, i }) => {
        queryPointers[p.name] = `${base}/parameters/${i}/schema`;
        // Mostly a value the document accepts; sometimes one a query parser might take for it.
        const value = fc.oneof(
          { weight: 4, arbitrary: schemaArbitrary(document, p.schema).map(String) },
          {
            weight: 1,
            arbitrary: fc.constantFrom('abc', '-1', '', '1.5', '1e3', '99999999999999999999', 'x'.repeat(600)),
          },
        );
        return fc.option(
          value.map((v) => [p.name, v] as [string, string]),
          { nil: undefined },
        );
      }),
  );
  const content = op.requestBody?.content?.['application/json'];
  const bodyPointer = content ? `${base}/requestBody/content/application~1json/schema` : undefined;
  const seed = seeds[`${method} ${path}`];
  const accepted = content
    ? seed === undefined
      ? schemaArbitrary(document, content.schema)
      : fc.oneof(fc.constant(seed), schemaArbitrary(document, content.schema))
    : undefined;
  const body: fc.Arbitrary<{ value?: unknown }> = accepted
    ? accepted.chain((value) =>
        fc.oneof(
          fc.constant({ value }),
          broken(value).map((b) => ({ value: b })),
        ),
      )
    : fc.constant({});
  return fc.tuple(pathValues, query, body).map(([params, q, b]) => {
    let url = path;
    for (const [name, value] of params) url = url.replace(`{${name}}`, encodeURIComponent(value));
    return {
      method: method.toUpperCase(),
      path: url,
      template: path,
      ...('value' in b ? { body: b.value, bodyPointer } : {}),
      query: q.filter((pair): pair is [string, string] => pair !== undefined),
      queryPointers,
    };
  });
}

function controlOperations(): Operation[] {
  return Object.entries(document.paths as Record<string, Record<string, Schema>>)
    .filter(([path]) => path.startsWith('/_emulator/'))
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })));
}

/** A number as a client writes it in a query: plain decimal digits (`1e3` is a string). */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** Whether the document accepts the query: each value as the string it is sent as, or as the number it spells. */
function queryAccepted(drawn: Drawn): boolean {
  return drawn.query.every(([name, value]) => {
    const pointer = drawn.queryPointers[name];
    return documentAccepts(pointer, value) || (PLAIN_NUMBER.test(value) && documentAccepts(pointer, Number(value)));
  });
}

describe('requests to the control plane drawn from the served document', () => {
  it('are answered with documented statuses, and refused exactly when the document refuses them', {
    timeout: TIMEOUT(90_000),
  }, async () => {
    const requests = fc.oneof(...controlOperations().map(requestFor));
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(requests, async (drawn) => {
        const search = new URLSearchParams(drawn.query).toString();
        const url = search ? `${drawn.path}?${search}` : drawn.path;
        const body = drawn.body === undefined ? undefined : JSON.stringify(drawn.body);
        const res = await http.send({
          method: drawn.method,
          path: url,
          headers: body === undefined ? [] : [['Content-Type', 'application/json']],
          ...(body === undefined ? {} : { body }),
        });
        const where = `${drawn.method} ${url} ${body ?? ''}\n  -> ${res.status} ${res.body.subarray(0, 400).toString('utf8')}`;
        const violations = checker.check({
          method: drawn.method,
          url,
          status: res.status,
          headers: res.headers,
          body: res.body,
        });
        if (violations.length) throw new Error(`breaks the document:\n  ${where}\n${violations.join('\n')}`);
        const bodyAccepted = drawn.bodyPointer === undefined || documentAccepts(drawn.bodyPointer, drawn.body);
        const accepted = bodyAccepted && queryAccepted(drawn);
        seen.add(`${drawn.method} ${drawn.template} ${accepted ? 'valid' : 'invalid'} ${res.status}`);
        if (!accepted && res.status < 300)
          throw new Error(`the document refuses this request, the server accepted it:\n  ${where}`);
        if (!accepted || res.status !== 422) return;
        const refusal = res.json().error as
          | { code?: string; problems?: { field: string; message: string }[]; message: string }
          | undefined;
        if (!refusal?.code || !SHAPE_REFUSALS.has(refusal.code)) return;
        const reasons = refusal.problems?.map((p) => `${p.field}: ${p.message}`) ?? [refusal.message];
        if (!reasons.every((reason) => BEYOND_SCHEMA.some((pattern) => pattern.test(reason))))
          throw new Error(`the document accepts this request, the server refused its shape:\n  ${where}`);
      }),
      PARAMETERS(400),
    );
    // Both kinds reach the server's checks, and some of each kind get through to an answer with data.
    const kinds = [...seen].join('\n');
    expect(kinds).toMatch(/ valid 2\d\d$/m);
    expect(kinds).toMatch(/ invalid 4\d\d$/m);
  });
});
