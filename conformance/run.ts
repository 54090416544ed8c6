// `npm run conformance`: the same generated requests to FastAPI (reference_app.py) and to the emulator, compared byte for byte.
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { startEmulator } from '../src/index.js';
import { estimateRequest, listRequest, modelsRequest, type RawRequest, submitRequest } from './cases.js';
import { judge } from './compare.js';
import { encodedRequest } from './encoding-cases.js';
import { makeSender, type RawAnswer } from './exchange.js';
import { uploadRequest } from './multipart-cases.js';
import { startReference } from './reference-server.js';
import { checkStarletteLimits } from './starlette-limits.js';
import { asJson, printReport, type Failure } from './report.js';
import { ensureVenv, SetupError } from './venv.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CONCURRENCY = 4;

const anyRequest = fc.oneof(
  { weight: 4, arbitrary: estimateRequest },
  { weight: 5, arbitrary: submitRequest },
  { weight: 3, arbitrary: listRequest },
  { weight: 1, arbitrary: modelsRequest },
  { weight: 2, arbitrary: uploadRequest },
  { weight: 2, arbitrary: encodedRequest },
);

function options() {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', default: '5000' },
      seed: { type: 'string', default: '1' },
      save: { type: 'string' },
    },
  });
  const cases = Number(values.cases);
  const seed = Number(values.seed);
  if (!Number.isInteger(cases) || cases < 1 || !Number.isInteger(seed))
    throw new SetupError('Usage: npm run conformance -- [--cases N] [--seed S] [--save FILE] (whole numbers, N >= 1).');
  return { cases, seed, save: values.save };
}

async function main(): Promise<number> {
  const { cases, seed, save } = options();
  const python = ensureVenv(ROOT);
  checkStarletteLimits(python);
  const reference = await startReference(python, ROOT);
  const emulator = await startEmulator({ seed, timing: 'manual', log: () => {} }).catch(async (error: unknown) => {
    await reference.close();
    throw error;
  });
  const ref = makeSender(reference.url, emulator.apiKey);
  const emu = makeSender(emulator.url, emulator.apiKey);
  const requests = fc.sample(anyRequest, { seed, numRuns: cases });
  const failures: Failure[] = [];
  const started = Date.now();
  try {
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++];
        // Reference first, then the emulator; emulator state (idempotency keys) only changes answers judge() accepts.
        const want: RawAnswer = await ref.send(request);
        const got: RawAnswer = await emu.send(request);
        const verdict = judge(endpointOf(request), want, got);
        if (!verdict.ok) failures.push({ mismatch: verdict.mismatch, request, want, got });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    ref.close();
    emu.close();
    await emulator.close();
    await reference.close();
  }
  printReport(failures, requests.length, { seed, seconds: (Date.now() - started) / 1000 });
  if (save) writeFileSync(save, failures.map((f) => JSON.stringify(asJson(f))).join('\n'));
  return failures.length === 0 ? 0 : 1;
}

const endpointOf = (r: RawRequest) => `${r.method} ${r.path.split('?')[0]}`;

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof SetupError ? `conformance: ${error.message}` : error);
    process.exit(2);
  },
);
