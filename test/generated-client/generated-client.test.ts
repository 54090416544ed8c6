// Clients generated from the served /openapi.json work with no casts: openapi-typescript + openapi-fetch types
// type-check flow.ts under --strict and exactOptionalPropertyTypes and the flow runs against a started emulator;
// @hey-api/openapi-ts generates with no error or warning and its output type-checks too.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/index.js';
import { MODEL_A } from '../helpers/emulator.js';
import { png } from '../helpers/images.js';
import type { FlowInput, FlowResult } from './flow-contract.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FLOW = fileURLToPath(new URL('./flow.ts', import.meta.url));
const CONTRACT = fileURLToPath(new URL('./flow-contract.ts', import.meta.url));
// The project's tsc (TypeScript 7, @typescript/native, as scripts/build.ts runs it); `typescript` is the JS API only.
const TSC = join(dirname(createRequire(import.meta.url).resolve('@typescript/native/package.json')), 'bin/tsc');

let running: RunningEmulator;
let document: Record<string, unknown>;
const dirs: string[] = [];

/** A folder under the system temp dir that sees the project's node_modules. */
function workspace(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** tsc --strict (and exactOptionalPropertyTypes when asked) over the given files; answers its diagnostics. */
function typeCheck(
  dir: string,
  include: string[],
  exactOptionalPropertyTypes: boolean,
): { status: number | null; output: string } {
  const compilerOptions = {
    strict: true,
    exactOptionalPropertyTypes,
    noEmit: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    skipLibCheck: true,
  };
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include }));
  const result = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Casts, non-null assertions and `any` in a source file, by its syntax tree. */
function escapes(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isAsExpression(node) ||
      ts.isTypeAssertionExpression(node) ||
      ts.isNonNullExpression(node) ||
      node.kind === ts.SyntaxKind.AnyKeyword
    )
      found.push(node.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

beforeAll(async () => {
  running = await startEmulator({ timing: 'manual', ffmpegPath: false, log: () => {} });
  document = (await (await fetch(`${running.url}/openapi.json`)).json()) as Record<string, unknown>;
});

afterAll(async () => {
  await running?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a client generated with openapi-typescript and openapi-fetch', () => {
  it('has no cast, non-null assertion or any in the flow', () => {
    expect(escapes(FLOW)).toEqual([]);
  });

  it('type-checks the flow under --strict and exactOptionalPropertyTypes, then runs it against the emulator', async () => {
    const dir = workspace('generated-client-');
    // The generator's documented option for files: `format: binary` becomes a Blob (FormData and fetch take one).
    const blob = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
    // `defaultNonNullable: false`: a member with a default is optional to send (a fault rule's `enabled`, `times`...);
    // the generator's default would make it required in request bodies too.
    const ast = await openapiTS(document as never, {
      transform: (schema) => (schema.format === 'binary' ? blob : undefined),
      defaultNonNullable: false,
    });
    writeFileSync(join(dir, 'schema.d.ts'), astToString(ast));
    copyFileSync(FLOW, join(dir, 'flow.ts'));
    copyFileSync(CONTRACT, join(dir, 'flow-contract.ts'));
    const checked = typeCheck(dir, ['flow.ts', 'flow-contract.ts', 'schema.d.ts'], true);
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);

    const [account] = await running.control.accounts();
    const before = account?.balance ?? 0;
    // The copy that was type-checked is the one that runs (it is outside the project's own type-check).
    const flow: { runFlow: (input: FlowInput) => Promise<FlowResult> } = await import(
      pathToFileURL(join(dir, 'flow.ts')).href
    );
    const result = await flow.runFlow({
      baseUrl: running.url,
      apiKey: running.apiKey,
      modelSlug: MODEL_A,
      image: new Blob([new Uint8Array(png(96, 80))], { type: 'image/png' }),
      complete: async (id) => {
        await running.control.complete(id);
      },
    });
    expect(result.models).toBeGreaterThan(1);
    expect(result.uploadId).toMatch(/\S/);
    expect(result).toMatchObject({ replayed: true, sameGeneration: true, statuses: ['pending', 'completed'] });
    expect(result.download.status).toBe(200);
    expect(result.download.type).toBe('video/mp4');
    expect(result.download.bytes).toBeGreaterThan(1000);
    expect(result.netCredits).toBe(result.estimate);
    expect(result.balance).toBe(before - result.estimate);
    expect(result.faults).toEqual([
      { status: 500, code: 'internal_error', rule: expect.any(String) },
      { status: 429, code: 'rate_limited', rule: expect.any(String) },
      { status: 402, code: 'bad_request', rule: expect.any(String) },
    ]);
  }, 180_000);
});

describe('a client generated with @hey-api/openapi-ts', () => {
  it('generates with no error or warning, and its output type-checks under --strict', async () => {
    const dir = workspace('hey-api-client-');
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
    const { createClient } = await import('@hey-api/openapi-ts');
    // Its progress lines go to console.log: kept quiet, and read for any word of a problem.
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    try {
      await createClient({
        input: join(dir, 'openapi.json'),
        output: join(dir, 'client'),
        plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      });
      expect(warn.mock.calls).toEqual([]);
      expect(error.mock.calls).toEqual([]);
      const lines = log.mock.calls.map((call) => call.map(String).join(' '));
      expect(lines.some((line) => line.includes('Done'))).toBe(true);
      expect(lines.filter((line) => /warn|error|fail|skip/i.test(line))).toEqual([]);
    } finally {
      log.mockRestore();
      warn.mockRestore();
      error.mockRestore();
    }
    // Its runtime helpers are not written for exactOptionalPropertyTypes; our document's types are checked above.
    const checked = typeCheck(dir, ['client/**/*.ts'], false);
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
  }, 180_000);
});
