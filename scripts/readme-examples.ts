// The README's marked code examples (`<!-- example: NAME -->` before a fence), so tests run them as written and they cannot drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './transpile-dist.js';

export interface ReadmeExample {
  /** The file name the marker gives, e.g. `media-client.test.ts`. */
  name: string;
  code: string;
}

const MARKED = /<!-- example: ([\w.-]+) -->\s*\n```[a-z]*\n([\s\S]*?)\n```/g;

export function readmeExamples(readme: string = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')): ReadmeExample[] {
  return [...readme.matchAll(MARKED)].map((m) => ({ name: m[1]!, code: `${m[2]}\n` }));
}
