// Locates files shipped in the package (fixtures/) from src/, dist/ or a compiled copy, by walking up directories.
import { access } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This module's directory: src/infra/ffmpeg, dist/infra/ffmpeg, or wherever a build put it. */
export const HERE = dirname(fileURLToPath(import.meta.url));

/** The first `<ancestor>/<relativePath>` that exists, starting at `fromDir` and walking to the root. */
export async function findUp(relativePath: string, fromDir: string = HERE): Promise<string | undefined> {
  let dir = resolve(fromDir);
  for (;;) {
    const candidate = join(dir, relativePath);
    try {
      await access(candidate);
      return candidate;
    } catch {
      // not here; try the parent
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
