// The report's rows follow the fidelity table, and the option sets priced are the ones documented.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/wiring/node/catalogue-file.js';
import { DECISIONS } from '../../src/verify/decisions.js';
import { MAX_FULL_ESTIMATES, optionSets } from '../../src/verify/option-sets.js';

/** The first column of the fidelity table in docs/api.md. */
function fidelityTable(): string[] {
  const place = readFileSync(fileURLToPath(new URL('../../docs/api.md', import.meta.url)), 'utf8');
  if (!place.includes('## Fidelity table')) throw new Error('no "## Fidelity table" section in docs/api.md');
  const section = place.slice(place.indexOf('## Fidelity table')).split(/\n## /)[0];
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) => line.split('|')[1].trim());
}

describe('the report rows', () => {
  it('have one row for every decision of the fidelity table, plus the validation refusals', () => {
    const table = fidelityTable();
    expect(table.length).toBeGreaterThan(30);
    const decisions = DECISIONS.map((d) => d.decision);
    expect(table.filter((row) => !decisions.includes(row))).toEqual([]);
    expect(DECISIONS.filter((d) => !table.includes(d.decision)).map((d) => d.id)).toEqual(['validation']);
    expect(new Set(DECISIONS.map((d) => d.id)).size).toBe(DECISIONS.length);
  });

  it('prices the defaults and each other value once, or with --full every combination', () => {
    const models = loadCatalogue().models;
    const a = models.filter((m) => m.slug === 'motion-lite-v1');
    // Model A: defaults, then 11 durations, 1 quality, 5 sizes, 1 audio, 3 counts.
    expect(optionSets(a, false)).toHaveLength(22);
    const full = optionSets(a, true);
    expect(full).toHaveLength(12 * 2 * 6 * 2 * 4);
    expect(new Set(full.map((s) => JSON.stringify(s.params))).size).toBe(full.length);
    expect(full[0]).toEqual({ model: 'motion-lite-v1', params: {} });
    const many = Array.from({ length: Math.ceil(MAX_FULL_ESTIMATES / full.length) + 1 }, (_, i) => ({
      ...a[0],
      slug: `m${i}`,
    }));
    expect(() => optionSets(many, true)).toThrow(/run without --full/);
  });
});
