// What a fault rule answers on /v1/media validates against the status the served document lists for it, as a
// validating client reads the answer (openapi-python-client raised on 500, 429 and a status-only 402 before).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';

type Schema = Record<string, any>;

/** The schema a client reads for this status and media type, from the document the emulator serves. */
function validatorFor(document: Schema, path: string, method: string, status: number, type: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ ...document, $id: 'doc' });
  const media = document.paths[path][method].responses[String(status)]?.content?.[type];
  if (!media) return undefined;
  return ajv.compile({
    $ref: `doc#/paths/${path.replace(/\//g, '~1')}/${method}/responses/${status}/content/${type.replace(/\//g, '~1')}/schema`,
  });
}

describe('a fault rule answer on POST /v1/media/generations', () => {
  it.each([
    ['500 (internal_error)', { type: 'status', status: 500 }, 500, 'internal_error'],
    ['429 (rate_limited, not the daily limit)', { type: 'status', status: 429 }, 429, 'rate_limited'],
    ['a status-only 402 (no credits members)', { type: 'status', status: 402 }, 402, 'bad_request'],
    [
      "404 with a code the status lists, but not that code's members",
      { type: 'status', status: 404, code: 'model_not_found' },
      404,
      'model_not_found',
    ],
    ['413 with a code of its own', { type: 'status', status: 413, code: 'body_too_big' }, 413, 'body_too_big'],
  ] as const)('validates at the listed status: %s', async (_, action, status, code) => {
    const { control, api } = controlled();
    await control.faults.add({ match: { method: 'POST', route: '/v1/media/generations' }, times: 1, action });
    const document = (await api.raw.get('/openapi.json')).body as Schema;
    const res = await api.submit(submission(), idem('fault-answer'));
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    const validate = validatorFor(document, '/v1/media/generations', 'post', status, 'application/json');
    expect(validate, `no JSON schema at ${status}`).toBeDefined();
    expect(validate?.(res.body), JSON.stringify(validate?.errors)).toBe(true);
  });

  it("still refuses, at that status, an answer that is neither the service's own nor a fault's envelope", async () => {
    const { api } = controlled();
    const document = (await api.raw.get('/openapi.json')).body as Schema;
    const validate = validatorFor(document, '/v1/media/generations', 'post', 429, 'application/json');
    expect(validate?.({ error: { code: 'rate_limited', message: 'm', hint: 'x' } })).toBe(false);
    expect(validate?.({ detail: [] })).toBe(false);
  });
});
