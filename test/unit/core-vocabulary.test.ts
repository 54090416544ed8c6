// The service core and the store of record speak the service's words: no emulation-plane term in domain/, http/, wiring/, store/ or config.ts,
// and the core names no plane concept (its path, its switch, its token).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/error-codes.js';
import { PLANE_ERROR_STATUSES } from '../../src/emulation/error-codes.js';
import { STORE_ERROR_STATUSES } from '../../src/store/store-errors.js';

const SRC = new URL('../../src/', import.meta.url).pathname;
/** Words only an emulator has; `default` and the like do not count (the letter before must not be a letter). */
const PLANE_WORDS = /(?<![a-z])(fault|scenario|journal|scripted|expired-once)/i;
/** The plane's concepts: its path, the option that turns it on, its token. */
const PLANE_CONCEPTS = /\/_emulator|controlPlane|adminToken/;
/**
 * The one file of the core that names the plane's path: the front door refuses a path that hides the plane's name
 * behind an encoding before any plugin sees the request, so the plane's guard cannot be walked around.
 */
const PLANE_PATH_FILE = 'http/plane-path.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(join(SRC, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name).slice(SRC.length));
}

/** `file:line: text` for every line that names a plane word. */
function planeWordsIn(files: string[], words = PLANE_WORDS): string[] {
  return files.flatMap((file) =>
    readFileSync(join(SRC, file), 'utf8')
      .split('\n')
      .flatMap((text, i) => (words.test(text) ? [`src/${file}:${i + 1}: ${text.trim()}`] : [])),
  );
}

describe('the core vocabulary', () => {
  it('has no plane word in domain/, http/, wiring/ or config.ts', () => {
    const core = [...sourceFiles('domain'), ...sourceFiles('http'), ...sourceFiles('wiring'), 'config.ts'];
    expect(core.length).toBeGreaterThan(50);
    expect(planeWordsIn(core)).toEqual([]);
  });

  it('has no plane word in the store of record (store/): a plugin names its own kept sections', () => {
    const store = sourceFiles('store');
    expect(store.length).toBeGreaterThan(5);
    expect(planeWordsIn(store)).toEqual([]);
  });

  it('names no plane concept (its path, controlPlane, adminToken) in domain/, http/, wiring/ or config.ts', () => {
    const core = [...sourceFiles('domain'), ...sourceFiles('http'), ...sourceFiles('wiring'), 'config.ts'];
    expect(core).toContain(PLANE_PATH_FILE);
    const named = planeWordsIn(
      core.filter((file) => file !== PLANE_PATH_FILE),
      PLANE_CONCEPTS,
    );
    expect(named).toEqual([]);
  });

  it('finds the words where they belong, so the scan itself works', () => {
    expect(planeWordsIn(['emulation/faults/fault-store.ts']).length).toBeGreaterThan(0);
    expect(planeWordsIn(['domain/pricing.ts'])).toEqual([]);
    expect(planeWordsIn(['emulation/plane-options.ts'], PLANE_CONCEPTS).length).toBeGreaterThan(1);
    expect(planeWordsIn([PLANE_PATH_FILE], PLANE_CONCEPTS).length).toBeGreaterThan(0);
  });

  it('keeps the plane’s error codes out of the core’s list', () => {
    const core = new Set<string>(ERROR_CODES);
    expect(Object.keys(PLANE_ERROR_STATUSES).filter((code) => core.has(code))).toEqual([]);
  });

  it('keeps the store’s error codes out of the core’s list and the plane’s', () => {
    const taken = new Set<string>([...ERROR_CODES, ...Object.keys(PLANE_ERROR_STATUSES)]);
    expect(Object.keys(STORE_ERROR_STATUSES).filter((code) => taken.has(code))).toEqual([]);
  });
});
