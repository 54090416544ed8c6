// The front door resolves each request once from its table: kind, operation, params, and its own 404/405/400 answers.
import { describe, expect, it } from 'vitest';
import { jsonAnswer } from '../../../src/http/answers.js';
import type { RouteEntry, ServiceRequest } from '../../../src/http/exchange.js';
import { frontDoor } from '../../../src/http/front-door.js';

const ok = () => jsonAnswer(200, {});
const route = (method: string, path: string, operation: string, extra: Partial<RouteEntry> = {}): RouteEntry => ({
  method,
  path,
  operation,
  kind: 'public',
  mutates: method !== 'GET',
  handle: ok,
  ...extra,
});

const door = frontDoor(
  [
    route('GET', '/v1/media/generations', 'listGenerations'),
    route('POST', '/v1/media/generations', 'submitGeneration'),
    route('GET', '/v1/media/generations/:generation_id', 'getGeneration'),
    route('GET', '/v1/media/generations/latest', 'latest'),
    route('GET', '/files/:generation_id/:name', 'getOutputFile', { kind: 'download' }),
    route('GET', '/_emulator/console/:asset', 'consoleAsset', { kind: 'emulator' }),
  ],
  {
    '/files/:generation_id/:name': { allow: ['GET', 'HEAD'] },
    '/_emulator/console/:asset': { otherMethods: 'not_found' },
  },
);

const resolve = (method: string, path: string) => door.resolve({ method, path } as ServiceRequest);

describe('the front door', () => {
  it('resolves a literal path by method, once, with what the route declares', () => {
    const submit = resolve('POST', '/v1/media/generations');
    expect([submit.kind, submit.operation, submit.mutates, submit.miss]).toEqual([
      'public',
      'submitGeneration',
      true,
      undefined,
    ]);
    expect(resolve('GET', '/v1/media/generations').operation).toBe('listGenerations');
    // One trailing slash, as Express routed it; the case matters, as it does to Starlette.
    expect(resolve('GET', '/v1/media/generations/').operation).toBe('listGenerations');
    expect(resolve('GET', '/v1/media/Generations').miss).toEqual({ reason: 'not_found' });
  });

  it('decodes parameters, prefers a literal path to a pattern, and refuses an escape that does not decode', () => {
    expect(resolve('GET', '/v1/media/generations/gen%5F1').params).toEqual({ generation_id: 'gen_1' });
    expect(resolve('GET', '/v1/media/generations/latest').operation).toBe('latest');
    expect(resolve('GET', '/files/gen_1/0.mp4/').params).toEqual({ generation_id: 'gen_1', name: '0.mp4' });
    // The router decodes before it looks at the method: a bad escape is a 400 whatever the method.
    expect(resolve('POST', '/v1/media/generations/%E0%A4%A').miss).toEqual({
      reason: 'bad_escape',
      value: '%E0%A4%A',
    });
    expect(resolve('GET', '/v1/media/generations//').miss).toEqual({ reason: 'not_found' });
  });

  it('answers HEAD with the GET route, and another method with the Allow the path declares, or a 404', () => {
    expect(resolve('HEAD', '/files/g/0.mp4').operation).toBe('getOutputFile');
    expect(resolve('PUT', '/v1/media/generations').miss).toEqual({ reason: 'not_allowed', allow: ['GET', 'POST'] });
    const file = resolve('POST', '/files/g/0.mp4');
    expect([file.kind, file.operation, file.mutates, file.miss]).toEqual([
      'download',
      'methodNotAllowed',
      false,
      { reason: 'not_allowed', allow: ['GET', 'HEAD'] },
    ]);
    expect(resolve('POST', '/_emulator/console/app.js').miss).toEqual({ reason: 'not_found' });
  });

  it("keeps a path under /v1/media that no route takes the public API's, anything else unknown", () => {
    expect([resolve('GET', '/v1/media/nope').kind, resolve('GET', '/v1/media/nope').operation]).toEqual([
      'public',
      'routeNotFound',
    ]);
    expect(resolve('GET', '/v2/media').kind).toBe('unknown');
  });

  it('marks a path that names the plane at any depth of encoding, for the guard', () => {
    expect(resolve('GET', '/_emulator/console/app.js').plane).toBe(true);
    expect(resolve('GET', '/%5Femulator/keys').plane).toBe(true);
    expect(resolve('GET', '/v1/media/generations').plane).toBe(false);
  });
});
