// Contract checking for the whole test suite: every response a test emulator sends is validated against the OpenAPI document.
// An observer hook of the pipeline sees how each exchange ended (status, headers, body as sent); afterEach fails the test on any violation.
import { afterEach } from 'vitest';
import type { Emulator, EmulatorOptions } from '../../src/index.js';
import { FileBody } from '../../src/http/exchange.js';
import type { ExchangeHooks } from '../../src/http/pipeline.js';
import { createEmulatorWith } from '../../src/testing.js';
import { emulatorOpenApiDocument } from '../../src/emulation/openapi/contribution.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { ContractChecker, type Exchange } from './contract-checker.js';
import { mswHostOn, servedByMsw } from './msw-host.js';

const violations: string[] = [];

afterEach(() => {
  const found = violations.splice(0);
  if (found.length) {
    throw new Error(
      `${found.length} response(s) broke the OpenAPI contract (src/openapi/*; fix the document if it is wrong, the emulator if not):\n\n${found.join('\n\n')}`,
    );
  }
});

/** Violations recorded so far in the current test, for tests of the checker itself; they are then forgotten. */
export function takeViolations(): string[] {
  return violations.splice(0);
}

// One checker per status table (tests may override `errorStatuses`); compiling schemas is the slow part, so share it.
const checkers = new Map<string, ContractChecker>();

export function checkerFor(errorStatuses: Record<string, number> = {}, controlPlane = true): ContractChecker {
  const key = JSON.stringify([errorStatuses, controlPlane]);
  let checker = checkers.get(key);
  if (!checker) {
    checker = new ContractChecker(emulatorOpenApiDocument({ errorStatuses, controlPlane }) as OpenApiDocument);
    checkers.set(key, checker);
  }
  return checker;
}

const BODY_CAP = 4 * 1024 * 1024;

/** The body as it went out: a file's bytes are not read again (the document only says its type). */
function sentBody(body: unknown): { bytes: Buffer; truncated: boolean } {
  if (body === undefined || body instanceof FileBody) return { bytes: Buffer.alloc(0), truncated: false };
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body as Uint8Array);
  return bytes.length > BODY_CAP
    ? { bytes: bytes.subarray(0, BODY_CAP), truncated: true }
    : { bytes, truncated: false };
}

/**
 * Checks each exchange that was answered whole, as the client received it, whatever answered: a route, the error
 * mapper, CORS, a fault rule or the store's 507 in its place.
 */
export function contractObserver(checker: () => ContractChecker): ExchangeHooks {
  return {
    after(x, outcome) {
      if (!outcome.finished || !outcome.response) return;
      const { bytes, truncated } = sentBody(outcome.response.body);
      const exchange: Exchange = {
        method: x.request.method,
        url: x.request.rawQuery === '' ? x.request.path : `${x.request.path}?${x.request.rawQuery}`,
        status: outcome.status,
        headers: Object.fromEntries(Object.entries(outcome.headers).map(([k, v]) => [k.toLowerCase(), v])),
        body: bytes,
        truncated,
      };
      violations.push(...checker().check(exchange));
    },
  };
}

/** createEmulatorApp with the contract observer before every plugin's hooks. */
export function createCheckedEmulator(
  options: EmulatorOptions = {},
  extras: Parameters<typeof createEmulatorWith>[2] = {},
): Emulator {
  const emulator = createEmulatorWith(
    options,
    [contractObserver(() => checkerFor(options.errorStatuses ?? {}, options.controlPlane ?? true))],
    extras,
  );
  return mswHostOn ? servedByMsw(emulator) : emulator;
}
