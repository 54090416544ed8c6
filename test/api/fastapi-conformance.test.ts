// Regression tests for the mismatch classes the conformance suite (npm run conformance) found against FastAPI 0.142.2 /
// Pydantic 2.13.5 / Starlette 1.7.0. Expected bytes were captured from that stack; no Python runs here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Control, RunningEmulator } from '../../src/index.js';
import { startSharedEmulator } from '../helpers/emulator.js';
import { rawClient, type RawClient, type RawRequest } from '../helpers/raw-http.js';

let running: RunningEmulator & { control: Control };
let http: RawClient;

beforeAll(async () => {
  running = await startSharedEmulator({ seed: 1, timing: 'manual', ffmpegPath: false });
  http = rawClient(running.url, 4);
});
afterAll(async () => {
  http.close();
  await running.close();
});

const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];
const IDEM: [string, string] = ['Idempotency-Key', '12345678'];
const MISSING_KEY = '{"type":"missing","loc":["header","idempotency-key"],"msg":"Field required","input":null}';

async function send(req: Omit<RawRequest, 'headers'> & { headers?: [string, string][] }) {
  const res = await http.send({
    ...req,
    headers: [['Authorization', `Bearer ${running.apiKey}`], ...(req.headers ?? [])],
  });
  return { status: res.status, type: res.headers['content-type'], text: res.body.toString('utf8') };
}

const post = (path: string, body: Buffer | string, headers: [string, string][] = [JSON_TYPE]) =>
  send({ method: 'POST', path, body, headers });

const strType = (i: number, input: string) =>
  `{"type":"string_type","loc":["body","refs",${i}],"msg":"Input should be a valid string","input":${input}}`;

describe('numbers are echoed as Python json.loads + json.dumps spell them', () => {
  it('keeps float spellings (1.0, 100.0, -0.0, 1e-07, 1e+19, 0.0001, 1e+16) and every digit of big ints', async () => {
    const res = await post(
      '/v1/media/estimate',
      '{"model_slug":"a","prompt":"x","refs":[1.0,1e2,-0.0,1e-7,1e19,9007199254740993,123456789012345678901234567890,0.0001,1E16]}',
    );
    const echoes = ['1.0', '100.0', '-0.0', '1e-07', '1e+19', '9007199254740993', '123456789012345678901234567890'];
    const all = [...echoes, '0.0001', '1e+16'];
    expect(res.status).toBe(422);
    expect(res.text).toBe(`{"detail":[${all.map((e, i) => strType(i, e)).join(',')}]}`);
  });

  it('answers int_parsing_size for a float past 2^63 in an integer field, a bound error for a huge int', async () => {
    const size = await post('/v1/media/generations', '{"model_slug":"a","prompt":"x","max_credits":1e19}', [
      JSON_TYPE,
      IDEM,
    ]);
    expect(size.text).toBe(
      '{"detail":[{"type":"int_parsing_size","loc":["body","max_credits"],"msg":"Unable to parse input string as an integer, exceeded maximum size","input":1e+19}]}',
    );
    const big = await post(
      '/v1/media/generations',
      '{"model_slug":"a","prompt":"x","max_credits":9223372036854775808}',
      [JSON_TYPE, IDEM],
    );
    expect(big.text).toBe(
      '{"detail":[{"type":"less_than_equal","loc":["body","max_credits"],"msg":"Input should be less than or equal to 1000000000","input":9223372036854775808,"ctx":{"le":1000000000}}]}',
    );
  });
});

describe('key order is the order written, at every depth', () => {
  it('orders errors and echoes by the body, integer-like keys included', async () => {
    const res = await post(
      '/v1/media/estimate',
      '{"prompt":"x","params":{"b":1,"2":2,"10":3,"a":4},"z":{"b":1,"2":[2.0]},"1":true}',
    );
    expect(res.text).toBe(
      '{"detail":[{"type":"missing","loc":["body","model_slug"],"msg":"Field required","input":{"prompt":"x","params":{"b":1,"2":2,"10":3,"a":4},"z":{"b":1,"2":[2.0]},"1":true}},{"type":"string_type","loc":["body","params","b"],"msg":"Input should be a valid string","input":1},{"type":"string_type","loc":["body","params","2"],"msg":"Input should be a valid string","input":2},{"type":"string_type","loc":["body","params","10"],"msg":"Input should be a valid string","input":3},{"type":"string_type","loc":["body","params","a"],"msg":"Input should be a valid string","input":4},{"type":"extra_forbidden","loc":["body","z"],"msg":"Extra inputs are not permitted","input":{"b":1,"2":[2.0]}},{"type":"extra_forbidden","loc":["body","1"],"msg":"Extra inputs are not permitted","input":true}]}',
    );
  });
});

describe('content types and encodings', () => {
  const attributes = (input: string) =>
    `{"detail":[{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":${input}}]}`;

  it('does not parse a body without Content-Type, even valid JSON (FastAPI 0.132 and later)', async () => {
    const res = await post('/v1/media/estimate', '{"model_slug":"a","prompt":"x"}', []);
    expect(res.status).toBe(422);
    expect(res.text).toBe(attributes(JSON.stringify('{"model_slug":"a","prompt":"x"}')));
  });

  it('keeps the UTF-8 byte-order mark of a text/plain body in the echo', async () => {
    const res = await post('/v1/media/estimate', Buffer.from('\ufeff{"a":1}'), [['Content-Type', 'text/plain']]);
    expect(res.text).toBe(attributes('"\ufeff{\\"a\\":1}"'));
  });

  it.each([
    ['UTF-16LE with a BOM', Buffer.from('\ufeff{"prompt":5}', 'utf16le')],
    ['UTF-16BE with a BOM', Buffer.from('\ufeff{"prompt":5}', 'utf16le').swap16()],
    ['UTF-32BE without a BOM', Buffer.from([...'{"prompt":5}'].flatMap((c) => [0, 0, 0, c.charCodeAt(0)]))],
  ])('decodes %s as json.loads(bytes) does', async (_name, body) => {
    const res = await post('/v1/media/estimate', body);
    expect(res.text).toBe(
      '{"detail":[{"type":"missing","loc":["body","model_slug"],"msg":"Field required","input":{"prompt":5}},{"type":"string_type","loc":["body","prompt"],"msg":"Input should be a valid string","input":5}]}',
    );
  });
});

describe('repeated headers, query parameters and form fields', () => {
  it('uses the first of two Idempotency-Key headers', async () => {
    const res = await post('/v1/media/generations', '{"model_slug":"no-such-model","prompt":"x","max_credits":5}', [
      JSON_TYPE,
      ['Idempotency-Key', 'short'],
      ['Idempotency-Key', 'long-enough-key'],
    ]);
    expect(res.status).toBe(422);
    expect(res.text).toBe(
      '{"detail":[{"type":"string_too_short","loc":["header","idempotency-key"],"msg":"String should have at least 8 characters","input":"short","ctx":{"min_length":8}}]}',
    );
  });

  it('uses the last of a repeated scalar query parameter', async () => {
    const res = await send({ method: 'GET', path: '/v1/media/models?kind=3d&kind=zz' });
    expect(res.text).toBe(
      `{"detail":[{"type":"literal_error","loc":["query","kind"],"msg":"Input should be 'image', 'video', 'music' or '3d'","input":"zz","ctx":{"expected":"'image', 'video', 'music' or '3d'"}}]}`,
    );
  });

  it('refuses a multipart file part without a filename as not an upload', async () => {
    const boundary = 'b0undary';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"',
      '',
      'abc',
      `--${boundary}`,
      'Content-Disposition: form-data; name="model_slug"',
      '',
      'm',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const res = await post('/v1/media/uploads', body, [['Content-Type', `multipart/form-data; boundary=${boundary}`]]);
    expect(res.text).toBe(
      `{"detail":[{"type":"value_error","loc":["body","file"],"msg":"Value error, Expected UploadFile, received: <class 'str'>","input":"abc","ctx":{"error":{}}}]}`,
    );
  });
});

describe('datetimes are read as "datetime or date"', () => {
  it.each(['2024-01-01T10:00:00+25:00', '2024-01-01T24:00:00', '2024-01-01T10:00:00+05', '2024-01-01T23:59:60'])(
    'refuses %s with the text Pydantic gives after a valid date',
    async (value) => {
      const res = await send({ method: 'GET', path: `/v1/media/generations?from=${encodeURIComponent(value)}` });
      const error = 'unexpected extra characters at the end of the input';
      expect(res.text).toBe(
        `{"detail":[{"type":"datetime_from_date_parsing","loc":["query","from"],"msg":"Input should be a valid datetime or date, ${error}","input":"${value}","ctx":{"error":"${error}"}}]}`,
      );
    },
  );

  it('accepts an offset of +23:59 and a fraction of more than six digits', async () => {
    for (const value of ['2024-01-01T10:00:00+23:59', '2024-01-01T10:00:00.1234567890'])
      expect(
        (await send({ method: 'GET', path: `/v1/media/generations?from=${encodeURIComponent(value)}` })).status,
      ).toBe(200);
  });
});

describe('lone surrogates', () => {
  it('writes a lone surrogate in a dict key as three U+FFFD in loc, as pydantic-core does', async () => {
    const res = await post('/v1/media/estimate', '{"model_slug":"a","prompt":"x","params":{"k\\ud800":5}}');
    expect(res.text).toBe(
      '{"detail":[{"type":"string_type","loc":["body","params","k\ufffd\ufffd\ufffd"],"msg":"Input should be a valid string","input":5}]}',
    );
  });

  it('accepts a lone surrogate in a plain string member, as an unconstrained str does', async () => {
    const res = await post('/v1/media/estimate', '{"model_slug":"no-such-model","prompt":"x","refs":["a\\ud800"]}');
    expect(res.status).not.toBe(422);
    expect(res.status).toBeLessThan(500);
  });

  it.each([
    ['in a constrained string', '{"model_slug":"a","prompt":"\\ud800"}'],
    ['in an extra member name', '{"model_slug":"a","prompt":"x","\\ud800":1}'],
  ])("answers Starlette's plain 500 for one %s (the real service cannot render it)", async (_name, body) => {
    const res = await post('/v1/media/estimate', body);
    expect([res.status, res.type, res.text]).toStrictEqual([500, 'text/plain; charset=utf-8', 'Internal Server Error']);
  });
});

it('reports a missing header with the body errors, header first', async () => {
  const res = await post('/v1/media/generations', '{"model_slug":"a","prompt":"x","max_credits":1.5}');
  expect(res.text).toBe(
    `{"detail":[${MISSING_KEY},{"type":"int_from_float","loc":["body","max_credits"],"msg":"Input should be a valid integer, got a number with a fractional part","input":1.5}]}`,
  );
});
