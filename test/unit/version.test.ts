// src/version.ts is a constant (no host reads package.json for it): it must say package.json's version.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packageVersion, VERSION_PATH, withVersion } from '../../scripts/write-version.js';
import { VERSION } from '../../src/version.js';

describe('the version constant', () => {
  it("is package.json's version (npm version rewrites it: the package's version script)", () => {
    expect(VERSION).toBe(packageVersion());
  });

  it('is rewritten in place by the version script, the rest of the file kept', () => {
    const source = readFileSync(VERSION_PATH, 'utf8');
    const bumped = withVersion(source, '9.8.7-rc.1');
    expect(bumped).not.toBe(source);
    expect(bumped.replace("'9.8.7-rc.1'", `'${VERSION}'`)).toBe(source);
  });
});
