// Contract checking for the whole test suite: every response a test emulator sends is validated against the OpenAPI document.
// A middleware placed before everything else records method, path, status, headers and the body as the pipeline sends it; afterEach fails the test on any violation.
import type { RequestHandler } from 'express';
import { afterEach } from 'vitest';
import type { Emulator, EmulatorOptions } from '../../src/index.js';
import { watchChunks } from '../../src/http/response-pipeline.js';
import { createEmulatorWith } from '../../src/testing.js';
import { emulatorOpenApiDocument } from '../../src/emulation/openapi/contribution.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { ContractChecker, type Exchange } from './contract-checker.js';

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

/** Records the exchange as the client sees it, whatever answered: a route, the error handler, CORS or a fault rule. */
export function contractMiddleware(checker: () => ContractChecker): RequestHandler {
  return (req, res, next) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > BODY_CAP) return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      size += buffer.length;
      chunks.push(buffer);
    };
    // What goes out after every plugin's hooks: a 507 that replaced an answer, a dribbled body once whole.
    watchChunks(res, keep);
    const method = req.method;
    const url = req.originalUrl;
    res.on('finish', () => {
      const exchange: Exchange = {
        method,
        url,
        status: res.statusCode,
        headers: res.getHeaders(),
        body: Buffer.concat(chunks),
        truncated: size > BODY_CAP,
      };
      violations.push(...checker().check(exchange));
    });
    next();
  };
}

/** createEmulatorApp with the contract middleware in front of everything else. */
export function createCheckedEmulator(options: EmulatorOptions = {}): Emulator {
  return createEmulatorWith(options, [
    contractMiddleware(() => checkerFor(options.errorStatuses ?? {}, options.controlPlane ?? true)),
  ]);
}
