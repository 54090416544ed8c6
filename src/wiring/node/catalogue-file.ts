// Reads the catalogue file on Node (the default one ships in fixtures/); the checks and the index are domain/catalogue.ts.
// A host without files passes the catalogue itself (the `catalogue` option, or fixtures/catalogue.json imported).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Catalogue, CatalogueError, messageOf, parseCatalogue } from '../../domain/catalogue.js';

/** src/wiring/node/ under vitest or tsx and dist/wiring/node/ after the build sit at the same depth below the package root. */
// Not `new URL(…, import.meta.url)`: Vite (vitest's jsdom environment) rewrites that pattern into an http: asset URL.
export const DEFAULT_CATALOGUE_PATH: string = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../fixtures/catalogue.json',
);

/** Read once at start-up, so a synchronous read is simpler than threading a promise through configuration. */
export function loadCatalogue(path: string = DEFAULT_CATALOGUE_PATH): Catalogue {
  const source = resolve(path);
  let text: string;
  try {
    text = readFileSync(source, 'utf8');
  } catch (err) {
    throw new CatalogueError(`catalogue ${source}: cannot read the file: ${messageOf(err)}`, { cause: err });
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new CatalogueError(`catalogue ${source}: invalid JSON: ${messageOf(err)}`, { cause: err });
  }
  return parseCatalogue(data, source);
}
