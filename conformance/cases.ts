// fast-check generators of raw requests for every public endpoint with input (spec 4.1-4.7): fields, bounds, raw bodies.
import fc from 'fast-check';
import { anyJson, anyKey, anyLiteral, anyNumber, arr, type Json, obj, raw, str, write } from './json-text.js';

export interface RawRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: [string, string][];
  body?: Buffer;
}

const slug = fc.constantFrom('no-such-model', 'a', 'x.y_z-1', '-bad', '', 'A'.repeat(81), 'sp ace', 'ok9', 'é');
const validString = fc.constantFrom('a', 'x y', 'hello', 'é😀');

/** A member is absent, valid, or replaced by any JSON value. */
function member(name: string, valid: fc.Arbitrary<Json>, weightAbsent = 2): fc.Arbitrary<[string, Json] | null> {
  return fc.oneof(
    { weight: weightAbsent, arbitrary: fc.constant(null) },
    { weight: 3, arbitrary: valid.map((v): [string, Json] => [name, v]) },
    { weight: 1, arbitrary: anyJson.map((v): [string, Json] => [name, v]) },
  );
}

const stringDict = (max: number) =>
  fc.oneof(
    fc.array(fc.tuple(anyKey, validString.map(str)), { maxLength: 3 }).map(obj),
    fc.array(fc.tuple(anyKey, fc.oneof(validString.map(str), anyNumber, anyLiteral)), { maxLength: 4 }).map(obj),
    fc.integer({ min: max, max: max + 2 }).map((n) => obj(Array.from({ length: n }, (_, i) => [`k${i}`, str('v')]))),
  );
const stringList = (max: number) =>
  fc.oneof(
    fc.array(fc.oneof(validString.map(str), anyNumber, anyLiteral), { maxLength: 4 }).map(arr),
    fc.integer({ min: max, max: max + 1 }).map((n) => arr(Array.from({ length: n }, () => str('u')))),
  );
const roleDict = fc
  .array(fc.tuple(anyKey, fc.oneof(fc.constantFrom('first', 'last', 'middle', 'FIRST').map(str), anyNumber)), {
    maxLength: 3,
  })
  .map(obj);
const maxCredits = fc.oneof(
  anyNumber,
  fc
    .constantFrom('"5"', '" 7 "', '"1_000"', '"2.0"', '"abc"', '"1.5"', '""', 'true', 'false', '0', '1000000001')
    .map(raw),
);

function body(withCredits: boolean): fc.Arbitrary<Json> {
  const members = [
    member('model_slug', slug.map(str), 1),
    member('prompt', fc.oneof(validString, fc.constant('p'.repeat(50_001))).map(str), 1),
    member('params', stringDict(40)),
    member('texts', stringDict(20)),
    member('refs', stringList(50)),
    member('ref_slots', fc.array(fc.tuple(anyKey, stringList(2)), { maxLength: 3 }).map(obj)),
    member('ref_roles', roleDict),
    ...(withCredits ? [member('max_credits', maxCredits, 1)] : []),
    fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, fc.tuple(anyKey, anyJson)),
  ];
  return fc.tuple(fc.tuple(...members), fc.boolean()).map(([list, shuffle]) => {
    const entries = list.filter((e): e is [string, Json] => e !== null);
    return obj(shuffle ? [...entries].reverse() : entries);
  });
}

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'APPLICATION/JSON',
];
const OTHER_TYPES = ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'application/xml'];

/** How a JSON text goes on the wire: content type (or none), encoding and BOM. */
const wire = fc.record({
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...JSON_TYPES) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(...OTHER_TYPES) },
  ),
  encoding: fc.oneof(
    { weight: 8, arbitrary: fc.constant('utf8' as const) },
    fc.constantFrom('utf8-bom', 'utf16le-bom', 'utf16be-bom', 'utf16le', 'utf32le-bom', 'utf32be'),
  ),
  spaced: fc.boolean(),
});

function encode(text: string, encoding: string): Buffer {
  const utf16le = (t: string) => Buffer.from(t, 'utf16le');
  const swap16 = (b: Buffer) => Buffer.from(b).swap16();
  const utf32 = (t: string, le: boolean) => {
    const points = [...t].map((c) => c.codePointAt(0) ?? 0);
    const out = Buffer.alloc(points.length * 4);
    for (const [i, p] of points.entries()) {
      if (le) out.writeUInt32LE(p, i * 4);
      else out.writeUInt32BE(p, i * 4);
    }
    return out;
  };
  switch (encoding) {
    case 'utf8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    case 'utf16le-bom':
      return utf16le(`\ufeff${text}`);
    case 'utf16be-bom':
      return swap16(utf16le(`\ufeff${text}`));
    case 'utf16le':
      return utf16le(text);
    case 'utf32le-bom':
      return utf32(`\ufeff${text}`, true);
    case 'utf32be':
      return utf32(text, false);
    default:
      return Buffer.from(text);
  }
}

const RAW_TEXTS = [
  '',
  'null',
  '[]',
  '{}',
  '"x"',
  '3',
  '{"model_slug":',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  'nul',
  '{"a":"\\x"}',
  '{"a":1} x',
  ' \n',
  '{"model_slug":"a","prompt":"b"}',
  '\u00e9',
  '{"a":"\ud800"}',
  '1e400',
  'NaN',
];

function jsonPost(path: string, withCredits: boolean, extraHeaders: fc.Arbitrary<[string, string][]>) {
  const text = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(body(withCredits), fc.boolean()).map(([b, spaced]) => write(b, spaced)) },
    { weight: 1, arbitrary: anyJson.map((j) => write(j)) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_TEXTS) },
  );
  return fc.tuple(text, wire, extraHeaders).map(([t, w, headers]): RawRequest => {
    const all: [string, string][] = [...headers];
    if (w.contentType !== null) all.push(['Content-Type', w.contentType]);
    return { method: 'POST', path, headers: all, body: encode(t, w.encoding) };
  });
}

const idempotencyHeaders = fc.oneof(
  fc.constant<[string, string][]>([]),
  fc
    .constantFrom('key-12345', 'short', '', 'k'.repeat(200), 'k'.repeat(201), 'ümlaut-key')
    .map((v): [string, string][] => [['Idempotency-Key', v]]),
  fc.constantFrom<[string, string][][]>(
    [
      ['Idempotency-Key', 'short'],
      ['Idempotency-Key', 'long-enough-key'],
    ],
    [
      ['Idempotency-Key', 'long-enough-key'],
      ['Idempotency-Key', 'short'],
    ],
  ),
);

const DATETIMES = [
  '2024-01-01',
  '2024-01-01T10:00:00Z',
  '2024-01-01T24:00:00',
  '2024-01-01T10:00:00+25:00',
  '2024-01-01T10:00:00+23:59',
  '2024-01-01T10:00:00-24:00',
  'abc',
  '2024-13-01',
  '2024/01/01',
  '2024-02-30',
  '1700000000',
  '2024-01-01T10:00',
  '2024-01-01 10:00:00.1234567',
  '2024-01-01T10:00:00.123456Z',
  '2024-01-01T10:60',
  '2024-01-01T10:00:00+0530',
  '',
  '-1',
  '2024-01-01T10:00:00+05',
  '2024-01-01Tab',
];
const LIMITS = [
  '0',
  '1',
  '100',
  '101',
  ' 5 ',
  '+5',
  '1_0',
  '2.0',
  '1.5',
  'abc',
  '',
  '99999999999999999999999',
  '-1',
  'true',
];
const KINDS = ['image', 'video', 'music', '3d', 'zz', '', 'IMAGE'];

const queryPair = fc.oneof(
  fc.constantFrom(...KINDS).map((v) => ['kind', v]),
  fc.constantFrom('pending', 'running', 'completed', 'failed', 'done').map((v) => ['status', v]),
  fc.constantFrom('m', 'x'.repeat(80), 'x'.repeat(81)).map((v) => ['model_slug', v]),
  fc.constantFrom(...DATETIMES).map((v) => ['from', v]),
  fc.constantFrom(...DATETIMES).map((v) => ['to', v]),
  fc.constantFrom('c', 'c'.repeat(301)).map((v) => ['cursor', v]),
  fc.constantFrom(...LIMITS).map((v) => ['limit', v]),
  fc.constantFrom('foo', 'from_').map((k) => [k, '1']),
);

const queryString = (pairs: fc.Arbitrary<string[]>) =>
  fc
    .array(pairs, { maxLength: 4 })
    .map((list) =>
      list.length ? `?${list.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : '',
    );

export { encode };
export const listRequest = queryString(queryPair).map(
  (q): RawRequest => ({ method: 'GET', path: `/v1/media/generations${q}`, headers: [] }),
);
export const modelsRequest = queryString(fc.constantFrom(...KINDS).map((v) => ['kind', v])).map(
  (q): RawRequest => ({ method: 'GET', path: `/v1/media/models${q}`, headers: [] }),
);
export const estimateRequest = jsonPost('/v1/media/estimate', false, fc.constant([]));
export const submitRequest = jsonPost('/v1/media/generations', true, idempotencyHeaders);
