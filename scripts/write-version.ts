// `npm version` runs this (the "version" script): src/version.ts takes package.json's new version, in the same commit.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const VERSION_PATH = fileURLToPath(new URL('../src/version.ts', import.meta.url));

/** package.json's version. */
export const packageVersion = (): string =>
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** src/version.ts with `version` in place of the one it holds. */
export const withVersion = (source: string, version: string): string =>
  source.replace(/^export const VERSION = '[^']*';$/m, `export const VERSION = '${version}';`);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const version = packageVersion();
  writeFileSync(VERSION_PATH, withVersion(readFileSync(VERSION_PATH, 'utf8'), version));
  process.stdout.write(`wrote ${VERSION_PATH} (${version})\n`);
}
