// A doc's code blocks that show a repository file (`<!-- file: PATH -->` before a fence), so a test keeps them equal to
// the files. `node --import tsx scripts/doc-file-blocks.ts docs/sandboxes.md` rewrites the blocks from the files.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('..', import.meta.url));

export interface FileBlock {
  /** The file's path from the repository root, as the marker names it. */
  path: string;
  /** The block's text, ending in a newline as the file does. */
  code: string;
}

const MARKED = /(<!-- file: ([\w./-]+) -->\s*\n```[a-z]*\n)([\s\S]*?)(```)/g;

export function fileBlocks(markdown: string): FileBlock[] {
  return [...markdown.matchAll(MARKED)].map((m) => ({ path: m[2]!, code: m[3]! }));
}

/** The markdown with each marked block replaced by its file's text. */
export function withFiles(markdown: string, read = (path: string) => readFileSync(join(REPO, path), 'utf8')): string {
  return markdown.replace(MARKED, (_, open: string, path: string, _code: string, close: string) => {
    const text = read(path);
    return `${open}${text.endsWith('\n') ? text : `${text}\n`}${close}`;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const doc of process.argv.slice(2)) {
    const path = join(REPO, doc);
    writeFileSync(path, withFiles(readFileSync(path, 'utf8')));
    console.log(`${doc}: ${fileBlocks(readFileSync(path, 'utf8')).length} file blocks written`);
  }
}
