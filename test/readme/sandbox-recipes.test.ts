// docs/sandboxes.md shows the three sandbox recipes as the files are, every file of them, and CI runs what it says to run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileBlocks, REPO } from '../../scripts/doc-file-blocks.js';

const doc = readFileSync(join(REPO, 'docs', 'sandboxes.md'), 'utf8');
const blocks = fileBlocks(doc);
const RECIPES = ['examples/playwright-sandboxes', 'examples/python', 'examples/vitest-sandboxes'];
/** What a reader need not see: the type-check settings of a folder. */
const UNSHOWN = new Set(['tsconfig.json']);

describe('docs/sandboxes.md', () => {
  it.each(blocks.map((b) => [b.path, b.code]))('shows %s as the file is', (path, code) => {
    expect(code, `run: node --import tsx scripts/doc-file-blocks.ts docs/sandboxes.md`).toBe(
      readFileSync(join(REPO, path), 'utf8'),
    );
  });

  it('shows every file of the three recipes', () => {
    const files = RECIPES.flatMap((dir) =>
      readdirSync(join(REPO, dir), { withFileTypes: true })
        .filter((entry) => entry.isFile() && !UNSHOWN.has(entry.name))
        .map((entry) => `${dir}/${entry.name}`),
    );
    expect(blocks.map((b) => b.path).sort()).toEqual(files.sort());
  });

  it('names npm scripts that exist, and CI runs each of them', () => {
    const scripts = (
      JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    const ci = readFileSync(join(REPO, '.ci', 'run'), 'utf8');
    const named = [...doc.matchAll(/^npm run (example:[\w:-]+)/gm)].map((m) => m[1]!);
    expect(named).toEqual(['example:playwright-sandboxes', 'example:python', 'example:vitest-sandboxes']);
    for (const name of named) {
      expect(scripts[name], name).toBeDefined();
      expect(ci, `.ci/run runs npm run ${name}`).toMatch(new RegExp(`^npm run ${name}$`, 'm'));
    }
  });
});
