// The probes that cannot charge: refusals at validation, unknown things, bad keys, and shapes of the free reads.
import type { Comparison } from './compare.js';
import type { ProbeRequest } from './http-probe.js';

export interface CheckSpec {
  /** `decision-check` id, or `id:detail` when one check is run several times. */
  id: string;
  label: string;
  how: Comparison;
  request: ProbeRequest;
}

/** 64x64 PNG: the smallest picture every specified model accepts as a reference. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAACXBIWXMAAAABAAAAAQBPJcTWAAAAeklEQVR4nO3PUQkAIBTAwFfJTpa1lSH8OITBAtxm7fN1wwUNaEEDWtCAFjSgBQ1oQQNa0IAWNKAFDWhBA1rQgBY0oAUNaEEDWtCAFjSgBQ1oQQNa0IAWNKAFDWhBA1rQgBY0oAUNaEEDWtCAFjSgBQ1oQQNa0IAWPHYBnX/hPDq0HjsAAAAASUVORK5CYII=',
  'base64',
);
export const KINDS = ['image', 'video', 'music', '3d'] as const;
const PROMPT = 'verify probe: a calm lake at dawn';
const UNKNOWN_KEY = 'sk-media-verify-unknown-key-000000';
const SIXTEEN_MIB = 16 * 1024 * 1024;

const estimate = (json: unknown, auth?: ProbeRequest['auth']): ProbeRequest => ({
  method: 'POST',
  path: '/v1/media/estimate',
  json,
  auth,
});

/** A submission that cannot charge more than 1 credit, sent only once the model's price is known to be above 1. */
export function ceilingSubmission(model: string, idempotencyKey: string | undefined, prompt = PROMPT): ProbeRequest {
  return {
    method: 'POST',
    path: '/v1/media/generations',
    headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
    json: { model_slug: model, prompt, max_credits: 1 },
  };
}

export function catalogueChecks(): CheckSpec[] {
  return [
    { id: 'catalogue', label: 'GET /models', how: 'body', request: { method: 'GET', path: '/v1/media/models' } },
    ...KINDS.map((kind) => ({
      id: `catalogue-kinds:${kind}`,
      label: `GET /models?kind=${kind}`,
      how: 'body' as const,
      request: { method: 'GET' as const, path: `/v1/media/models?kind=${kind}` },
    })),
  ];
}

export function freeChecks(model: string, runId: string, full: boolean): CheckSpec[] {
  const get = (path: string, auth?: ProbeRequest['auth']): ProbeRequest => ({ method: 'GET', path, auth });
  const upload = (fields: Record<string, string>): ProbeRequest => ({
    method: 'POST',
    path: '/v1/media/uploads',
    form: { fields: { model_slug: model, ...fields }, file: { name: 'verify.png', type: 'image/png', bytes: PNG } },
  });
  const checks: CheckSpec[] = [
    {
      id: 'estimate-shape',
      label: 'estimate, default options',
      how: 'shape',
      request: estimate({ model_slug: model, prompt: PROMPT }),
    },
    {
      id: 'list-shape',
      label: 'GET /generations?limit=1',
      how: 'shape',
      request: get('/v1/media/generations?limit=1'),
    },
    {
      id: 'bad-cursor',
      label: 'a cursor the service never issued',
      how: 'error',
      request: get('/v1/media/generations?cursor=verify-not-a-cursor'),
    },
    { id: 'list-limit', label: 'limit=0', how: 'error', request: get('/v1/media/generations?limit=0') },
    { id: 'usage-shape', label: 'GET /usage', how: 'shape', request: get('/v1/media/usage') },
    { id: 'upload-shape', label: 'upload of a 64x64 PNG', how: 'shape', request: upload({}) },
    {
      id: 'upload-bad-slot',
      label: 'upload naming no slot of the model',
      how: 'error',
      request: upload({ target_slot: 'verify_no_such_slot' }),
    },
    {
      id: 'direct-ref',
      label: 'estimate with an https URL in refs',
      how: 'error',
      request: estimate({ model_slug: model, prompt: PROMPT, refs: ['https://example.com/verify.png'] }),
    },
    { id: 'auth-missing', label: 'no Authorization header', how: 'error', request: get('/v1/media/models', 'none') },
    {
      id: 'auth-malformed',
      label: 'a key without the sk-media- prefix',
      how: 'error',
      request: get('/v1/media/models', { authorization: 'Bearer not-a-media-key' }),
    },
    {
      id: 'auth-unknown',
      label: 'a well-formed unknown key',
      how: 'error',
      request: get('/v1/media/models', { authorization: `Bearer ${UNKNOWN_KEY}` }),
    },
    { id: 'auth-before-validation', label: 'no key and an empty body', how: 'error', request: estimate({}, 'none') },
    {
      id: 'unknown-generation',
      label: 'GET an id that does not exist',
      how: 'error',
      request: get('/v1/media/generations/gen_verify_no_such_id'),
    },
    {
      id: 'null-params',
      label: 'estimate with "params": null',
      how: 'shape',
      request: estimate({ model_slug: model, prompt: PROMPT, params: null }),
    },
    {
      id: 'deep-json',
      label: 'a body nested 1,001 levels deep',
      how: 'error',
      request: {
        method: 'POST',
        path: '/v1/media/estimate',
        raw: `{"model_slug":${'['.repeat(1001)}${']'.repeat(1001)}}`,
      },
    },
    {
      id: 'unknown-model',
      label: 'estimate for an unknown model',
      how: 'error',
      request: estimate({ model_slug: 'verify-no-such-model', prompt: PROMPT }),
    },
    {
      id: 'unknown-model-bad-params',
      label: 'unknown model and an unknown option group',
      how: 'error',
      request: estimate({ model_slug: 'verify-no-such-model', prompt: PROMPT, params: { verify_no_such_group: 'x' } }),
    },
    {
      id: 'bad-slug',
      label: 'a model_slug outside the pattern',
      how: 'error',
      request: estimate({ model_slug: '-bad slug', prompt: PROMPT }),
    },
    {
      id: 'extra-member',
      label: 'estimate with an unknown member',
      how: 'error',
      request: estimate({ model_slug: model, prompt: PROMPT, verify_extra: 1 }),
    },
    {
      id: 'no-idempotency-key',
      label: 'submission without Idempotency-Key',
      how: 'error',
      request: ceilingSubmission(model, undefined),
    },
    {
      id: 'short-idempotency-key',
      label: 'a 7-character Idempotency-Key',
      how: 'error',
      request: ceilingSubmission(model, `v${runId}`.slice(0, 7)),
    },
  ];
  if (full)
    checks.push({
      id: 'too-large',
      label: 'a JSON body over 16 MiB',
      how: 'error',
      request: {
        method: 'POST',
        path: '/v1/media/estimate',
        raw: `{"model_slug":"${model}","prompt":"${'a'.repeat(SIXTEEN_MIB)}"}`,
      },
    });
  return checks;
}
