// `npm run openapi`: writes docs/openapi.json from the zod schemas; a test fails when the committed copy is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { emulatorOpenApiDocument } from '../src/emulation/openapi/contribution.js';

/** The committed form: two-space indentation and a final newline, so diffs stay readable. */
export const serialiseDocument = () => `${JSON.stringify(emulatorOpenApiDocument(), null, 2)}\n`;

export const DOCUMENT_PATH = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(DOCUMENT_PATH, serialiseDocument());
  process.stdout.write(`wrote ${DOCUMENT_PATH}\n`);
}
