// The console's hand-written files name no control path: they call the client bundled from the registry, and the page
// links its assets relative to itself.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const CONSOLE = new URL('../../src/console/', import.meta.url).pathname;
/** Written by scripts/bundle-console.ts from the registry's declarations: its paths are the registry's own. */
const BUNDLED = 'control-client.js';

function pathLiterals(name: string): string[] {
  return readFileSync(CONSOLE + name, 'utf8')
    .split('\n')
    .flatMap((text, i) => (text.includes('/_emulator') ? [`src/console/${name}:${i + 1}: ${text.trim()}`] : []));
}

describe('the console', () => {
  it('has no /_emulator path in its hand-written files (pages, scripts, styles)', () => {
    const files = readdirSync(CONSOLE).filter((name) => /\.(html|js|css)$/.test(name) && name !== BUNDLED);
    expect(files).toContain('console.html');
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap(pathLiterals)).toEqual([]);
  });
});
