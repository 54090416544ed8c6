// 422s through HTTP, byte for byte as FastAPI/Pydantic v2 write them: every field and bound of spec 4.2, 4.3, 4.4,
// 4.7 and 8, the order of items, lax integers, code-point lengths, json_invalid positions, and model-level 422s.
import { describe, expect, it } from 'vitest';
import { client, makeEmulator, MODEL_A, MODEL_B } from '../helpers/emulator.js';
import { runtimeOf } from '../../src/testing.js';

type Item = { type: string; loc: (string | number)[]; msg: string; input: unknown; ctx?: Record<string, unknown> };

/** Builds an item with members in Pydantic's order, so JSON.stringify gives the exact expected bytes. */
function item(
  type: string,
  loc: (string | number)[],
  msg: string,
  input: unknown,
  ctx?: Record<string, unknown>,
): Item {
  return ctx === undefined ? { type, loc, msg, input } : { type, loc, msg, input, ctx };
}

const PATTERN = '^[a-zA-Z0-9][a-zA-Z0-9._-]*$';
const UNKNOWN_MODEL = 'no-such-model';
const KEY = 'idem-key-0001';

const missing = (loc: (string | number)[], input: unknown) => item('missing', loc, 'Field required', input);
const extra = (name: string, input: unknown) =>
  item('extra_forbidden', ['body', name], 'Extra inputs are not permitted', input);
const stringType = (loc: (string | number)[], input: unknown) =>
  item('string_type', loc, 'Input should be a valid string', input);
const tooShort = (loc: (string | number)[], input: string, min: number) =>
  item('string_too_short', loc, `String should have at least ${min} character${min === 1 ? '' : 's'}`, input, {
    min_length: min,
  });
const tooLong = (loc: (string | number)[], input: string, max: number) =>
  item('string_too_long', loc, `String should have at most ${max} character${max === 1 ? '' : 's'}`, input, {
    max_length: max,
  });
const pattern = (input: string) =>
  item('string_pattern_mismatch', ['body', 'model_slug'], `String should match pattern '${PATTERN}'`, input, {
    pattern: PATTERN,
  });
const intType = (loc: (string | number)[], input: unknown) =>
  item('int_type', loc, 'Input should be a valid integer', input);
const intParsing = (loc: (string | number)[], input: unknown) =>
  item('int_parsing', loc, 'Input should be a valid integer, unable to parse string as an integer', input);
const intFromFloat = (loc: (string | number)[], input: unknown) =>
  item('int_from_float', loc, 'Input should be a valid integer, got a number with a fractional part', input);
const ge = (loc: (string | number)[], input: unknown, bound: number) =>
  item('greater_than_equal', loc, `Input should be greater than or equal to ${bound}`, input, { ge: bound });
const le = (loc: (string | number)[], input: unknown, bound: number) =>
  item('less_than_equal', loc, `Input should be less than or equal to ${bound}`, input, { le: bound });
const dictType = (loc: (string | number)[], input: unknown) =>
  item('dict_type', loc, 'Input should be a valid dictionary', input);
const listType = (loc: (string | number)[], input: unknown) =>
  item('list_type', loc, 'Input should be a valid list', input);
const dictTooLong = (name: string, input: Record<string, unknown>, max: number) =>
  item(
    'too_long',
    ['body', name],
    `Dictionary should have at most ${max} items after validation, not ${Object.keys(input).length}`,
    input,
    {
      field_type: 'Dictionary',
      max_length: max,
      actual_length: Object.keys(input).length,
    },
  );
const listTooLong = (input: unknown[], max: number) =>
  item(
    'too_long',
    ['body', 'refs'],
    `List should have at most ${max} items after validation, not ${input.length}`,
    input,
    {
      field_type: 'List',
      max_length: max,
      actual_length: input.length,
    },
  );
const roleLiteral = (key: string, input: unknown) =>
  item('literal_error', ['body', 'ref_roles', key], "Input should be 'first' or 'last'", input, {
    expected: "'first' or 'last'",
  });
const jsonInvalid = (pos: number, error: string) =>
  item('json_invalid', ['body', pos], 'JSON decode error', {}, { error });
const modelAttributes = (input: unknown) =>
  item('model_attributes_type', ['body'], 'Input should be a valid dictionary or object to extract fields from', input);
const datetimeError = (name: string, input: string, error: string) =>
  item('datetime_from_date_parsing', ['query', name], `Input should be a valid datetime or date, ${error}`, input, {
    error,
  });
const KIND_EXPECTED = "'image', 'video', 'music' or '3d'";
const STATUS_EXPECTED = "'pending', 'running', 'completed' or 'failed'";

const entries = (n: number, value: (i: number) => unknown = () => 'v') =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value(i)]));
const ids = (n: number) => Array.from({ length: n }, (_, i) => `upl_${i}`);

/** The whole 422: status, exact content type, the parsed detail, and the exact compact bytes. */
function expect422(
  res: { status: number; headers: Record<string, string>; text: string; body: unknown },
  detail: Item[],
) {
  expect(res.status).toBe(422);
  expect(res.headers['content-type']).toBe('application/json');
  expect(res.body).toStrictEqual({ detail });
  expect(res.text).toBe(JSON.stringify({ detail }));
}

function setup() {
  const emulator = makeEmulator({ ffmpegPath: false });
  const api = client(emulator);
  const auth = { Authorization: `Bearer ${emulator.apiKey}` };
  const rawPost = (path: string, body: string | Buffer, contentType?: string, headers: Record<string, string> = {}) => {
    const req = api.raw.post(path).set(auth).set(headers);
    if (contentType !== undefined) req.set('Content-Type', contentType);
    return req.send(body);
  };
  return { emulator, api, rawPost };
}

const base = { model_slug: MODEL_A, prompt: 'a red fox running through snow' };
const unknownModel = { model_slug: UNKNOWN_MODEL, prompt: 'a red fox' };

describe('POST /v1/media/estimate body fields and bounds (spec 4.2, 8)', () => {
  const cases: [string, Record<string, unknown>, (body: Record<string, unknown>) => Item[]][] = [
    ['model_slug missing', { prompt: 'x' }, (b) => [missing(['body', 'model_slug'], b)]],
    ['prompt missing', { model_slug: MODEL_A }, (b) => [missing(['body', 'prompt'], b)]],
    ['both required members missing', {}, (b) => [missing(['body', 'model_slug'], b), missing(['body', 'prompt'], b)]],
    [
      'model_slug empty (singular "character")',
      { ...base, model_slug: '' },
      () => [tooShort(['body', 'model_slug'], '', 1)],
    ],
    [
      'model_slug 81 characters',
      { ...base, model_slug: 'a'.repeat(81) },
      () => [tooLong(['body', 'model_slug'], 'a'.repeat(81), 80)],
    ],
    [
      'model_slug too long and off-pattern gives only too_long',
      { ...base, model_slug: `-${'a'.repeat(80)}` },
      () => [tooLong(['body', 'model_slug'], `-${'a'.repeat(80)}`, 80)],
    ],
    ['model_slug starting with "-"', { ...base, model_slug: '-abc' }, () => [pattern('-abc')]],
    ['model_slug with a space', { ...base, model_slug: 'motion lite' }, () => [pattern('motion lite')]],
    ['model_slug with a slash', { ...base, model_slug: 'a/b' }, () => [pattern('a/b')]],
    [
      'model_slug of 80 astral characters is 80 code points: pattern, not length',
      { ...base, model_slug: '😀'.repeat(80) },
      () => [pattern('😀'.repeat(80))],
    ],
    [
      'model_slug of 81 astral characters is too long',
      { ...base, model_slug: '😀'.repeat(81) },
      () => [tooLong(['body', 'model_slug'], '😀'.repeat(81), 80)],
    ],
    ['model_slug null', { ...base, model_slug: null }, () => [stringType(['body', 'model_slug'], null)]],
    ['model_slug a number (never coerced)', { ...base, model_slug: 5 }, () => [stringType(['body', 'model_slug'], 5)]],
    ['prompt a boolean', { ...base, prompt: true }, () => [stringType(['body', 'prompt'], true)]],
    ['prompt an array', { ...base, prompt: ['x'] }, () => [stringType(['body', 'prompt'], ['x'])]],
    [
      'prompt 50,001 characters',
      { ...base, prompt: 'p'.repeat(50_001) },
      () => [tooLong(['body', 'prompt'], 'p'.repeat(50_001), 50_000)],
    ],
    [
      'prompt 50,001 astral characters',
      { ...base, prompt: '😀'.repeat(50_001) },
      () => [tooLong(['body', 'prompt'], '😀'.repeat(50_001), 50_000)],
    ],
    ['params a list', { ...base, params: ['720p'] }, () => [dictType(['body', 'params'], ['720p'])]],
    ['params a string', { ...base, params: 'quality=720p' }, () => [dictType(['body', 'params'], 'quality=720p')]],
    [
      'params value a number',
      { ...base, params: { duration: 5 } },
      () => [stringType(['body', 'params', 'duration'], 5)],
    ],
    [
      'params value null',
      { ...base, params: { quality: null } },
      () => [stringType(['body', 'params', 'quality'], null)],
    ],
    [
      'params 41 entries',
      { ...base, params: entries(41) },
      (b) => [dictTooLong('params', b.params as Record<string, unknown>, 40)],
    ],
    [
      'params 41 entries with one bad value: only the entry error',
      { ...base, params: entries(41, (i) => (i === 7 ? 7 : 'v')) },
      () => [stringType(['body', 'params', 'k7'], 7)],
    ],
    ['texts a number', { ...base, texts: 3 }, () => [dictType(['body', 'texts'], 3)]],
    [
      'texts value an object',
      { ...base, texts: { title: { a: 1 } } },
      () => [stringType(['body', 'texts', 'title'], { a: 1 })],
    ],
    [
      'texts 21 entries',
      { ...base, texts: entries(21) },
      (b) => [dictTooLong('texts', b.texts as Record<string, unknown>, 20)],
    ],
    ['refs a string', { ...base, refs: 'upl_1' }, () => [listType(['body', 'refs'], 'upl_1')]],
    ['refs an object', { ...base, refs: { a: 'upl_1' } }, () => [listType(['body', 'refs'], { a: 'upl_1' })]],
    [
      'refs items that are not strings, each at its index',
      { ...base, refs: ['upl_0', 1, null, 'upl_3', false] },
      () => [
        stringType(['body', 'refs', 1], 1),
        stringType(['body', 'refs', 2], null),
        stringType(['body', 'refs', 4], false),
      ],
    ],
    ['refs 51 items', { ...base, refs: ids(51) }, (b) => [listTooLong(b.refs as unknown[], 50)]],
    [
      'refs 51 items with bad items: one too_long replaces the item errors',
      { ...base, refs: [...ids(49), 1, null] },
      (b) => [listTooLong(b.refs as unknown[], 50)],
    ],
    ['ref_slots a list', { ...base, ref_slots: ['upl_1'] }, () => [dictType(['body', 'ref_slots'], ['upl_1'])]],
    [
      'ref_slots value a string',
      { ...base, ref_slots: { first_frame: 'upl_1' } },
      () => [listType(['body', 'ref_slots', 'first_frame'], 'upl_1')],
    ],
    [
      'ref_slots item a number (index is a number in loc)',
      { ...base, ref_slots: { first_frame: ['upl_1', 2] } },
      () => [stringType(['body', 'ref_slots', 'first_frame', 1], 2)],
    ],
    [
      'ref_slots 21 keys',
      { ...base, ref_slots: entries(21, () => ['upl_1']) },
      (b) => [dictTooLong('ref_slots', b.ref_slots as Record<string, unknown>, 20)],
    ],
    [
      'ref_slots 21 keys with a bad item: only the item error',
      { ...base, ref_slots: entries(21, (i) => (i === 20 ? [9] : ['upl_1'])) },
      () => [stringType(['body', 'ref_slots', 'k20', 0], 9)],
    ],
    [
      'ref_roles value not first/last',
      { ...base, ref_roles: { img1: 'middle' } },
      () => [roleLiteral('img1', 'middle')],
    ],
    [
      'ref_roles value in another case',
      { ...base, ref_roles: { img1: 'First' } },
      () => [roleLiteral('img1', 'First')],
    ],
    ['ref_roles value a number', { ...base, ref_roles: { img1: 1 } }, () => [roleLiteral('img1', 1)]],
    ['ref_roles value null', { ...base, ref_roles: { img1: null } }, () => [roleLiteral('img1', null)]],
    ['ref_roles a list', { ...base, ref_roles: ['first'] }, () => [dictType(['body', 'ref_roles'], ['first'])]],
    [
      'ref_roles 51 entries',
      { ...base, ref_roles: entries(51, (i) => (i % 2 ? 'first' : 'last')) },
      (b) => [dictTooLong('ref_roles', b.ref_roles as Record<string, unknown>, 50)],
    ],
    [
      'ref_roles 51 entries with one bad value: only the literal error',
      { ...base, ref_roles: entries(51, (i) => (i === 50 ? 'mid' : 'first')) },
      () => [roleLiteral('k50', 'mid')],
    ],
    ['an unknown member', { ...base, foo: 'bar' }, () => [extra('foo', 'bar')]],
    [
      'max_credits is not a member of the estimate body',
      { ...base, max_credits: 100 },
      () => [extra('max_credits', 100)],
    ],
  ];

  it.each(cases)('%s', async (_name, body, expected) => {
    const { api } = setup();
    expect422(await api.post('/v1/media/estimate', body), expected(body));
  });

  const passes: [string, Record<string, unknown>][] = [
    ['model_slug of 80 characters', { ...unknownModel, model_slug: `a${'b'.repeat(79)}` }],
    ['model_slug with dots, dashes and underscores', { ...unknownModel, model_slug: 'A1.b_c-d' }],
    ['prompt of exactly 50,000 characters', { ...unknownModel, prompt: 'p'.repeat(50_000) }],
    ['prompt of 50,000 astral characters (100,000 UTF-16 units)', { ...unknownModel, prompt: '😀'.repeat(50_000) }],
    ['an empty prompt (the schema has no minimum)', { ...unknownModel, prompt: '' }],
    ['params of 40 entries', { ...unknownModel, params: entries(40) }],
    ['texts of 20 entries', { ...unknownModel, texts: entries(20) }],
    ['refs of 50 items', { ...unknownModel, refs: ids(50) }],
    ['ref_slots of 20 keys', { ...unknownModel, ref_slots: entries(20, () => ['upl_1']) }],
    ['ref_roles of 50 entries', { ...unknownModel, ref_roles: entries(50, () => 'last') }],
    [
      'optional members sent as null',
      { ...unknownModel, params: null, texts: null, refs: null, ref_slots: null, ref_roles: null },
    ],
    ['empty optional members', { ...unknownModel, params: {}, texts: {}, refs: [], ref_slots: {}, ref_roles: {} }],
  ];
  it.each(passes)('schema accepts %s (the request reaches the model lookup)', async (_name, body) => {
    const { api } = setup();
    const res = await api.post('/v1/media/estimate', body);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'model_not_found', message: expect.any(String) } });
  });

  it('counts a 50,000-code-point prompt as 50,000 at the model rule too (not 100,000 UTF-16 units)', async () => {
    const { api } = setup();
    const prompt = '😀'.repeat(50_000);
    const res = await api.post('/v1/media/estimate', { model_slug: MODEL_A, prompt });
    expect422(res, [
      item(
        'model_prompt_too_long',
        ['body', 'prompt'],
        `Prompt should have at most 2500 characters for model '${MODEL_A}', not 50000; shorten the prompt`,
        prompt,
        { max_length: 2500 },
      ),
    ]);
  });
});

describe('item order', () => {
  it('reports body fields in declaration order whatever the JSON key order, missing in place, extras last', async () => {
    const { api } = setup();
    const body = {
      zeta: 1,
      max_credits: 'abc',
      ref_roles: { a: 'x' },
      refs: 'r',
      texts: [],
      alpha: { n: 2 },
      prompt: 5,
      params: 1,
    };
    const res = await api.submit(body, KEY);
    expect422(res, [
      missing(['body', 'model_slug'], body),
      stringType(['body', 'prompt'], 5),
      dictType(['body', 'params'], 1),
      dictType(['body', 'texts'], []),
      listType(['body', 'refs'], 'r'),
      roleLiteral('a', 'x'),
      intParsing(['body', 'max_credits'], 'abc'),
      extra('zeta', 1),
      extra('alpha', { n: 2 }),
    ]);
  });

  it('puts header errors before body errors', async () => {
    const { api } = setup();
    const body = { model_slug: '', prompt: 'x', max_credits: 0, extra: true };
    const res = await api.submit(body, 'short');
    expect422(res, [
      tooShort(['header', 'idempotency-key'], 'short', 8),
      tooShort(['body', 'model_slug'], '', 1),
      ge(['body', 'max_credits'], 0, 1),
      extra('extra', true),
    ]);
  });

  it('reports every body error of a thoroughly bad request in one 422', async () => {
    const { api } = setup();
    const body = {
      foo: 1,
      model_slug: '',
      prompt: 5,
      params: [],
      texts: 'x',
      refs: {},
      ref_slots: { a: 'x', b: [1] },
      ref_roles: { a: 'mid' },
      max_credits: 1.5,
      bar: null,
    };
    expect422(await api.submit(body, 'abc'), [
      tooShort(['header', 'idempotency-key'], 'abc', 8),
      tooShort(['body', 'model_slug'], '', 1),
      stringType(['body', 'prompt'], 5),
      dictType(['body', 'params'], []),
      dictType(['body', 'texts'], 'x'),
      listType(['body', 'refs'], {}),
      listType(['body', 'ref_slots', 'a'], 'x'),
      stringType(['body', 'ref_slots', 'b', 0], 1),
      roleLiteral('a', 'mid'),
      intFromFloat(['body', 'max_credits'], 1.5),
      extra('foo', 1),
      extra('bar', null),
    ]);
  });

  it('lists extra members in JSON key order, including integer-like keys (Python keeps insertion order)', async () => {
    const { rawPost } = setup();
    const res = await rawPost(
      '/v1/media/estimate',
      `{"zz":1,"model_slug":"${MODEL_A}","prompt":"x","10":2,"aa":3,"2":4}`,
      'application/json',
    );
    expect422(res, [extra('zz', 1), extra('10', 2), extra('aa', 3), extra('2', 4)]);
  });

  it('orders the query errors of the list endpoint by declaration (kind, status, model_slug, from, to, cursor, limit)', async () => {
    const { api } = setup();
    const longSlug = 'm'.repeat(81);
    const longCursor = 'c'.repeat(301);
    const res = await api.get(
      `/v1/media/generations?limit=abc&cursor=${longCursor}&to=2024-13-01&from=abc&model_slug=${longSlug}&status=done&kind=foo`,
    );
    expect422(res, [
      item('literal_error', ['query', 'kind'], `Input should be ${KIND_EXPECTED}`, 'foo', { expected: KIND_EXPECTED }),
      item('literal_error', ['query', 'status'], `Input should be ${STATUS_EXPECTED}`, 'done', {
        expected: STATUS_EXPECTED,
      }),
      tooLong(['query', 'model_slug'], longSlug, 80),
      datetimeError('from', 'abc', 'input is too short'),
      datetimeError('to', '2024-13-01', 'month value is outside expected range of 1-12'),
      tooLong(['query', 'cursor'], longCursor, 300),
      intParsing(['query', 'limit'], 'abc'),
    ]);
  });
});

describe('POST /v1/media/generations: max_credits and lax integers (spec 4.3)', () => {
  // A 2943-credit request: every accepted max_credits below it is refused with 402, whose details echo the parsed integer.
  const pricey = { model_slug: MODEL_A, prompt: 'fox', params: { duration: '15', quality: '720p', count: '4' } };
  const accepted: [string, string, number][] = [
    ['true', 'true', 1],
    ['"5"', '"5"', 5],
    ['" 5 "', '" 5 "', 5],
    ['"+5"', '"+5"', 5],
    ['"1_000"', '"1_000"', 1000],
    ['"2.0"', '"2.0"', 2],
    ['2.0', '2.0', 2],
    ['1e3', '1e3', 1000],
    ['1000', '1000', 1000],
  ];
  it.each(accepted)('accepts %s as an integer', async (_name, json, value) => {
    const { rawPost, emulator } = setup();
    const text = `{"model_slug":"${MODEL_A}","prompt":"fox","params":{"duration":"15","quality":"720p","count":"4"},"max_credits":${json}}`;
    const res = await rawPost('/v1/media/generations', text, 'application/json', { 'Idempotency-Key': KEY });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'max_credits_exceeded', credits: 2943, max_credits: value });
    expect(runtimeOf(emulator).context().generations.size).toBe(0);
  });

  const L = ['body', 'max_credits'];
  const refused: [string, unknown, (body: Record<string, unknown>) => Item[]][] = [
    ['missing', undefined, (b) => [missing(L, b)]],
    ['false (0)', false, () => [ge(L, false, 1)]],
    ['0', 0, () => [ge(L, 0, 1)]],
    ['-5', -5, () => [ge(L, -5, 1)]],
    ['"0" (input stays the string)', '0', () => [ge(L, '0', 1)]],
    ['1,000,000,001', 1_000_000_001, () => [le(L, 1_000_000_001, 1_000_000_000)]],
    ['"1000000001"', '1000000001', () => [le(L, '1000000001', 1_000_000_000)]],
    ['"1.5"', '1.5', () => [intParsing(L, '1.5')]],
    ['"abc"', 'abc', () => [intParsing(L, 'abc')]],
    ['""', '', () => [intParsing(L, '')]],
    ['"1e3" (a string is not read as a float)', '1e3', () => [intParsing(L, '1e3')]],
    ['"1__000"', '1__000', () => [intParsing(L, '1__000')]],
    ['1.5', 1.5, () => [intFromFloat(L, 1.5)]],
    ['null', null, () => [intType(L, null)]],
    ['[]', [], () => [intType(L, [])]],
    ['{}', {}, () => [intType(L, {})]],
    ['[5]', [5], () => [intType(L, [5])]],
  ];
  it.each(refused)('max_credits %s', async (_name, value, expected) => {
    const { api, emulator } = setup();
    const body: Record<string, unknown> = { ...pricey };
    if (value !== undefined) body.max_credits = value;
    expect422(await api.submit(body, KEY), expected(body));
    expect(runtimeOf(emulator).context().generations.size).toBe(0);
  });

  it('accepts the bounds 1 and 1,000,000,000', async () => {
    const { api } = setup();
    expect((await api.submit({ ...pricey, max_credits: 1 }, 'bound-low-1')).body.error.code).toBe(
      'max_credits_exceeded',
    );
    expect((await api.submit({ ...pricey, max_credits: 1_000_000_000 }, 'bound-high-1')).status).toBe(202);
  });
});

describe('Idempotency-Key header (spec 4.3, 8)', () => {
  const body = { model_slug: MODEL_A, prompt: 'fox', max_credits: 100 };
  const H = ['header', 'idempotency-key'];

  it('missing: a `missing` item with input null', async () => {
    const { api } = setup();
    expect422(await api.post('/v1/media/generations', body), [missing(H, null)]);
  });

  it('missing, with a missing body: header first, then the body', async () => {
    const { api, emulator } = setup();
    const res = await api.raw.post('/v1/media/generations').set('Authorization', `Bearer ${emulator.apiKey}`);
    expect422(res, [missing(H, null), missing(['body'], null)]);
  });

  const cases: [string, string, Item][] = [
    ['empty', '', tooShort(H, '', 8)],
    ['7 characters', 'k'.repeat(7), tooShort(H, 'k'.repeat(7), 8)],
    ['201 characters', 'k'.repeat(201), tooLong(H, 'k'.repeat(201), 200)],
  ];
  it.each(cases)('%s', async (_name, value, expected) => {
    const { api } = setup();
    expect422(await api.submit(body, value), [expected]);
  });

  it.each([8, 200])('accepts %i characters', async (n) => {
    const { api } = setup();
    expect((await api.submit(body, 'k'.repeat(n))).status).toBe(202);
  });
});

describe('body decoding (FastAPI reads JSON by Content-Type; Python json.loads positions)', () => {
  const invalid: [string, string, number, string][] = [
    ['a missing value', '{"a": }', 6, 'Expecting value'],
    ['leading whitespace counts in the position', '   {"a": }', 9, 'Expecting value'],
    ['whitespace only', '   ', 3, 'Expecting value'],
    ['a bare word', 'hello', 0, 'Expecting value'],
    ['a truncated literal', '{"a": tru}', 6, 'Expecting value'],
    // Python <= 3.12 wording; 3.13 says "Illegal trailing comma before end of object" at the comma.
    ['a trailing comma in an object', '{"a":1,}', 7, 'Expecting property name enclosed in double quotes'],
    ['a trailing comma in an array', '{"refs":["a",]}', 13, 'Expecting value'],
    ['an unquoted key', '{a:1}', 1, 'Expecting property name enclosed in double quotes'],
    ['single quotes', "{'a':1}", 1, 'Expecting property name enclosed in double quotes'],
    ['a missing colon', '{"a" 1}', 5, "Expecting ':' delimiter"],
    ['a missing comma', '{"a":1 "b":2}', 7, "Expecting ',' delimiter"],
    ['an unterminated string (position of its opening quote)', '{"a": "abc', 6, 'Unterminated string starting at'],
    ['an unterminated object', '{"a": 1', 7, "Expecting ',' delimiter"],
    ['extra data after the object', '{"a":1} x', 8, 'Extra data'],
    ['two objects', '{}{}', 2, 'Extra data'],
    ['a raw control character in a string', '{"a":"x\u0001"}', 7, 'Invalid control character at'],
    ['a bad escape (position of the backslash)', '{"a":"\\q"}', 6, 'Invalid \\escape'],
    ['a bad \\u escape', '{"a":"\\u12"}', 7, 'Invalid \\uXXXX escape'],
    ['positions in code points, not UTF-16 units or bytes', '{"é😀": }', 7, 'Expecting value'],
  ];
  it.each(invalid)('json_invalid: %s', async (_name, text, pos, error) => {
    const { rawPost } = setup();
    expect422(await rawPost('/v1/media/estimate', text, 'application/json'), [jsonInvalid(pos, error)]);
  });

  it('json_invalid is the only item: header errors are not reported with it', async () => {
    const { rawPost } = setup();
    const res = await rawPost('/v1/media/generations', '{"a": }', 'application/json');
    expect(res.text).toBe(
      '{"detail":[{"type":"json_invalid","loc":["body",6],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}]}',
    );
    expect(res.headers['content-type']).toBe('application/json');
  });

  const nonObjects: [string, string, unknown][] = [
    ['an array', '[1,2]', [1, 2]],
    ['a string', '"hello"', 'hello'],
    ['a number', '5', 5],
    ['a boolean', 'true', true],
  ];
  it.each(nonObjects)('a JSON body that is %s: model_attributes_type with the value', async (_name, text, value) => {
    const { rawPost } = setup();
    expect422(await rawPost('/v1/media/estimate', text, 'application/json'), [modelAttributes(value)]);
  });

  it('an empty body: missing at ["body"] with input null (exact bytes)', async () => {
    const { api } = setup();
    const res = await api.post('/v1/media/estimate');
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).toBe('{"detail":[{"type":"missing","loc":["body"],"msg":"Field required","input":null}]}');
  });

  it('JSON null: the same as an empty body', async () => {
    const { rawPost } = setup();
    expect422(await rawPost('/v1/media/estimate', 'null', 'application/json'), [missing(['body'], null)]);
  });

  it('an empty body with a non-JSON Content-Type is still missing', async () => {
    const { rawPost } = setup();
    expect422(await rawPost('/v1/media/estimate', '', 'text/plain'), [missing(['body'], null)]);
  });

  it('text/plain: model_attributes_type with the raw text as input (exact bytes)', async () => {
    const { rawPost } = setup();
    const res = await rawPost('/v1/media/estimate', `{"model_slug": "${MODEL_A}", "prompt": "x"}`, 'text/plain');
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).toBe(
      '{"detail":[{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":"{\\"model_slug\\": \\"motion-lite-v1\\", \\"prompt\\": \\"x\\"}"}]}',
    );
  });

  it('application/x-www-form-urlencoded: the raw text too', async () => {
    const { rawPost } = setup();
    expect422(await rawPost('/v1/media/estimate', 'model_slug=a&prompt=b', 'application/x-www-form-urlencoded'), [
      modelAttributes('model_slug=a&prompt=b'),
    ]);
  });

  it('a wrong Content-Type on a submission: the header error, then model_attributes_type', async () => {
    const { rawPost } = setup();
    expect422(await rawPost('/v1/media/generations', 'not json', 'text/plain'), [
      missing(['header', 'idempotency-key'], null),
      modelAttributes('not json'),
    ]);
  });

  it.each(['application/vnd.api+json', 'application/json; charset=utf-8', 'APPLICATION/JSON'])(
    'accepts %s as JSON',
    async (type) => {
      const { rawPost } = setup();
      const res = await rawPost('/v1/media/estimate', JSON.stringify({ model_slug: MODEL_A, prompt: 'x' }), type);
      expect(res.status).toBe(200);
      expect(res.body.credits).toBe(88);
    },
  );

  it('refuses a body without Content-Type as FastAPI 0.132+ does: model_attributes_type with the raw text', async () => {
    const { emulator } = setup();
    const { request } = await import('node:http');
    const { url } = await emulator.listen();
    {
      const target = new URL('/v1/media/estimate', url);
      const body = JSON.stringify({ model_slug: MODEL_A, prompt: 'x' });
      const result = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request(
          target,
          {
            method: 'POST',
            headers: { Authorization: `Bearer ${emulator.apiKey}`, 'Content-Length': Buffer.byteLength(body) },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(result.status).toBe(422);
      expect(result.text).toBe(
        `{"detail":[{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":${JSON.stringify(body)}}]}`,
      );
    }
  });

  it('writes non-ASCII input unescaped in UTF-8 (exact bytes)', async () => {
    const { api } = setup();
    const res = await api.post('/v1/media/estimate', { model_slug: 'café😀', prompt: 'x' });
    expect(res.status).toBe(422);
    expect(res.text).toBe(
      `{"detail":[{"type":"string_pattern_mismatch","loc":["body","model_slug"],"msg":"String should match pattern '${PATTERN}'","input":"café😀","ctx":{"pattern":"${PATTERN}"}}]}`,
    );
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text, 'utf8')));
  });
});

describe('GET /v1/media/generations query (spec 4.4)', () => {
  const Q = (name: string) => ['query', name];

  const cases: [string, string, Item[]][] = [
    ['limit "0" keeps the string input', 'limit=0', [ge(Q('limit'), '0', 1)]],
    ['limit "101"', 'limit=101', [le(Q('limit'), '101', 100)]],
    ['limit "-1"', 'limit=-1', [ge(Q('limit'), '-1', 1)]],
    ['limit "1_000" parses, then is too big', 'limit=1_000', [le(Q('limit'), '1_000', 100)]],
    ['limit "abc"', 'limit=abc', [intParsing(Q('limit'), 'abc')]],
    ['limit "1.5"', 'limit=1.5', [intParsing(Q('limit'), '1.5')]],
    ['limit "" (present but empty)', 'limit=', [intParsing(Q('limit'), '')]],
    ['limit "true" (a string in a query, not a boolean)', 'limit=true', [intParsing(Q('limit'), 'true')]],
    [
      'kind not a media kind',
      'kind=videos',
      [item('literal_error', Q('kind'), `Input should be ${KIND_EXPECTED}`, 'videos', { expected: KIND_EXPECTED })],
    ],
    [
      'kind in another case',
      'kind=Video',
      [item('literal_error', Q('kind'), `Input should be ${KIND_EXPECTED}`, 'Video', { expected: KIND_EXPECTED })],
    ],
    [
      'status not a state',
      'status=done',
      [item('literal_error', Q('status'), `Input should be ${STATUS_EXPECTED}`, 'done', { expected: STATUS_EXPECTED })],
    ],
    ['model_slug filter 81 characters', `model_slug=${'m'.repeat(81)}`, [tooLong(Q('model_slug'), 'm'.repeat(81), 80)]],
    [
      'model_slug filter of 81 astral characters',
      `model_slug=${encodeURIComponent('😀'.repeat(81))}`,
      [tooLong(Q('model_slug'), '😀'.repeat(81), 80)],
    ],
    ['cursor 301 characters', `cursor=${'c'.repeat(301)}`, [tooLong(Q('cursor'), 'c'.repeat(301), 300)]],
    ['from "abc"', 'from=abc', [datetimeError('from', 'abc', 'input is too short')]],
    [
      'from "2024-13-01"',
      'from=2024-13-01',
      [datetimeError('from', '2024-13-01', 'month value is outside expected range of 1-12')],
    ],
    ['to "2024/01/01"', 'to=2024/01/01', [datetimeError('to', '2024/01/01', 'invalid date separator, expected `-`')]],
    ['duplicated limit: the last value counts (bad last)', 'limit=5&limit=0', [ge(Q('limit'), '0', 1)]],
    [
      'duplicated kind: the last value counts',
      'kind=video&kind=foo',
      [item('literal_error', Q('kind'), `Input should be ${KIND_EXPECTED}`, 'foo', { expected: KIND_EXPECTED })],
    ],
  ];
  it.each(cases)('%s', async (_name, query, expected) => {
    const { api } = setup();
    expect422(await api.get(`/v1/media/generations?${query}`), expected);
  });

  it('query limit "0" gives the exact bytes FastAPI writes', async () => {
    const { api } = setup();
    const res = await api.get('/v1/media/generations?limit=0');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).toBe(
      '{"detail":[{"type":"greater_than_equal","loc":["query","limit"],"msg":"Input should be greater than or equal to 1","input":"0","ctx":{"ge":1}}]}',
    );
  });

  const lax: [string, string, number][] = [
    ['"5"', '5', 5],
    ['" 5 "', '%205%20', 5],
    ['"+5"', '%2B5', 5],
    ['"2.0"', '2.0', 2],
    ['"1_0"', '1_0', 10],
    ['"100"', '100', 100],
    ['"1"', '1', 1],
    ['a duplicated limit, bad first', '0&limit=7', 7],
  ];
  it.each(lax)('accepts limit %s', async (_name, raw, value) => {
    const { api } = setup();
    const res = await api.get(`/v1/media/generations?limit=${raw}`);
    expect(res.status).toBe(200);
    expect(res.body.limit).toBe(value);
  });

  it.each([
    '2024-01-01',
    '2024-01-01T00:00:00Z',
    '2024-01-01T00:00:00%2B02:00',
    '2024-01-01 10:20:30.123456',
    '1700000000',
  ])('accepts the date-time %s', async (value) => {
    const { api } = setup();
    expect((await api.get(`/v1/media/generations?from=${value}&to=${value}`)).status).toBe(200);
  });

  it('GET /v1/media/models?kind=bad gives the literal error at ["query","kind"]', async () => {
    const { api } = setup();
    expect422(await api.get('/v1/media/models?kind=image2'), [
      item('literal_error', Q('kind'), `Input should be ${KIND_EXPECTED}`, 'image2', { expected: KIND_EXPECTED }),
    ]);
  });
});

describe('model-level 422s through HTTP: same detail form, never a charge', () => {
  const groupsA = ['duration', 'quality', 'size', 'audio', 'count'];
  const upload = 'upload the file with POST /v1/media/uploads and pass the returned id';
  const longA = 'a'.repeat(2501);
  const dataUri = 'data:image/png;base64,iVBORw0KGgo=';
  const cases: [string, Record<string, unknown>, Item[]][] = [
    [
      'an unknown option group',
      { model_slug: MODEL_A, prompt: 'fox', params: { style: 'anime' } },
      [
        item(
          'model_option_unknown',
          ['body', 'params', 'style'],
          `Unknown option group 'style' for model '${MODEL_A}'; allowed groups: ${groupsA.join(', ')}`,
          'anime',
          { allowed_groups: groupsA },
        ),
      ],
    ],
    [
      'a group Model B lacks (quality)',
      { model_slug: MODEL_B, prompt: 'fox', params: { quality: '720p' } },
      [
        item(
          'model_option_unknown',
          ['body', 'params', 'quality'],
          `Unknown option group 'quality' for model '${MODEL_B}'; allowed groups: duration, size, audio, count`,
          '720p',
          {
            allowed_groups: ['duration', 'size', 'audio', 'count'],
          },
        ),
      ],
    ],
    [
      'an unknown value',
      { model_slug: MODEL_A, prompt: 'fox', params: { quality: '1080p' } },
      [
        item(
          'model_option_value',
          ['body', 'params', 'quality'],
          `Value '1080p' is not allowed for option 'quality' of model '${MODEL_A}'; allowed values: 480p, 720p`,
          '1080p',
          {
            allowed_values: ['480p', '720p'],
          },
        ),
      ],
    ],
    [
      'a Model B duration of 2',
      { model_slug: MODEL_B, prompt: 'fox', params: { duration: '2' } },
      [
        item(
          'model_option_value',
          ['body', 'params', 'duration'],
          `Value '2' is not allowed for option 'duration' of model '${MODEL_B}'; allowed values: 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15`,
          '2',
          {
            allowed_values: ['3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'],
          },
        ),
      ],
    ],
    [
      'a prompt of 2,501 characters for Model A',
      { model_slug: MODEL_A, prompt: longA },
      [
        item(
          'model_prompt_too_long',
          ['body', 'prompt'],
          `Prompt should have at most 2500 characters for model '${MODEL_A}', not 2501; shorten the prompt`,
          longA,
          { max_length: 2500 },
        ),
      ],
    ],
    [
      'a prompt of 2,501 astral characters for Model B',
      { model_slug: MODEL_B, prompt: '🎬'.repeat(2501) },
      [
        item(
          'model_prompt_too_long',
          ['body', 'prompt'],
          `Prompt should have at most 2500 characters for model '${MODEL_B}', not 2501; shorten the prompt`,
          '🎬'.repeat(2501),
          { max_length: 2500 },
        ),
      ],
    ],
    [
      'two refs for Model A',
      { model_slug: MODEL_A, prompt: 'fox', refs: ['upl_1', 'upl_2'] },
      [
        item(
          'model_refs_too_many',
          ['body', 'refs'],
          `Model '${MODEL_A}' accepts at most 1 reference file, not 2; remove 1`,
          ['upl_1', 'upl_2'],
          { max_files: 1 },
        ),
      ],
    ],
    [
      'three refs for Model B',
      { model_slug: MODEL_B, prompt: 'fox', refs: ['upl_1', 'upl_2', 'upl_3'] },
      [
        item(
          'model_refs_too_many',
          ['body', 'refs'],
          `Model '${MODEL_B}' accepts at most 2 reference files, not 3; remove 1`,
          ['upl_1', 'upl_2', 'upl_3'],
          { max_files: 2 },
        ),
      ],
    ],
    [
      'an HTTPS URL ref for Model A',
      { model_slug: MODEL_A, prompt: 'fox', refs: ['https://example.com/a.png'] },
      [
        item(
          'model_ref_unsupported',
          ['body', 'refs', 0],
          `Reference 'https://example.com/a.png' is an HTTPS URL; model '${MODEL_A}' accepts only upload identifiers: ${upload} in refs`,
          'https://example.com/a.png',
          {
            accepts: ['upload_id'],
          },
        ),
      ],
    ],
    [
      'a data: ref for Model B',
      { model_slug: MODEL_B, prompt: 'fox', refs: [dataUri] },
      [
        item(
          'model_ref_unsupported',
          ['body', 'refs', 0],
          `Reference '${dataUri}' is a data: URI; model '${MODEL_B}' accepts only upload identifiers: ${upload} in refs`,
          dataUri,
          { accepts: ['upload_id'] },
        ),
      ],
    ],
    [
      'a file path in a Model B slot',
      { model_slug: MODEL_B, prompt: 'fox', ref_slots: { last_frame: ['/tmp/end.png'] } },
      [
        item(
          'model_ref_unsupported',
          ['body', 'ref_slots', 'last_frame', 0],
          `Reference '/tmp/end.png' is a file path; model '${MODEL_B}' accepts only upload identifiers: ${upload} in ref_slots`,
          '/tmp/end.png',
          {
            accepts: ['upload_id'],
          },
        ),
      ],
    ],
  ];

  it.each(cases)('%s', async (_name, body, expected) => {
    const { api, emulator } = setup();
    const ctx = runtimeOf(emulator).context();
    const ledgerBefore = ctx.ledger.size;
    expect422(await api.submit({ ...body, max_credits: 10_000 }, KEY), expected);
    // The estimate answers the same items.
    expect422(await api.post('/v1/media/estimate', body), expected);
    const usage = await api.get('/v1/media/usage');
    expect(usage.body.wallet_balance).toBe(1_000_000);
    expect(usage.body.today.charged_credits).toBe(0);
    expect(ctx.ledger.size).toBe(ledgerBefore);
    expect(ctx.generations.size).toBe(0);
    expect((await api.get('/v1/media/generations')).body.generations).toEqual([]);
    // A refused request does not use up its Idempotency-Key.
    const ok = await api.submit({ model_slug: MODEL_A, prompt: 'fox', max_credits: 100 }, KEY);
    expect(ok.status).toBe(202);
    expect(ok.body.replayed).toBe(false);
  });

  it('accepts 2,500 astral characters for Model A (code points, not UTF-16 units)', async () => {
    const { api } = setup();
    const res = await api.submit({ model_slug: MODEL_A, prompt: '😀'.repeat(2500), max_credits: 100 }, KEY);
    expect(res.status).toBe(202);
  });
});
