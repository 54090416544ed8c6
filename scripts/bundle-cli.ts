// Bundles the CLI with esbuild: one entry module plus chunks loaded on demand, so a start parses and runs only what serving needs.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * Modules find shipped files (fixtures/, src/console/, package.json) relative to their own URL. In a bundle every
 * module would share its output file's URL, so each `import.meta.url` is rewritten to where that module sits in dist/.
 * Every output file (entry and chunks) is written to the bundle's own directory, so the relative URLs hold in all.
 */
function ownModuleUrls(srcDir: string, bundleDir: string): Plugin {
  return {
    name: 'own-module-urls',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        if (!source.includes('import.meta.url') || !path.startsWith(srcDir)) return { contents: source, loader: 'ts' };
        // Relative to the bundle's own directory (dist/cli/), which mirrors src/cli/.
        const fromBundle = relative(bundleDir, path).replaceAll('\\', '/').replace(/\.ts$/, '.js');
        const own = fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`;
        return {
          contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`),
          loader: 'ts',
        };
      });
    },
  };
}

/**
 * JSON files (a dependency's tables) as `JSON.parse` of a string: V8 reads
 * that far faster than the object literal esbuild would write, as Node's own require() of a .json file does.
 */
function jsonAsParse(): Plugin {
  return {
    name: 'json-as-parse',
    setup(b) {
      b.onLoad({ filter: /\.json$/ }, async ({ path }) => ({
        contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(await readFile(path, 'utf8'))))});`,
        loader: 'js',
      }));
    },
  };
}

/**
 * A CommonJS module that finds files through `__dirname` would look in dist/cli/ once bundled, not in its package:
 * the build stops instead, so such a dependency is kept external or given its files, never broken silently.
 */
async function checkNoDirname(bundleDir: string) {
  for (const name of await readdir(bundleDir)) {
    if (!name.endsWith('.js')) continue;
    if ((await readFile(join(bundleDir, name), 'utf8')).includes('__dirname'))
      throw new Error(`${name} in the CLI bundle reads __dirname, which points at dist/cli/ once bundled`);
  }
}

/** Writes `<outDir>/cli/main.js` (and its chunks beside it) from `<srcDir>/cli/main.ts`, where tsc puts it, so the URLs above hold. */
export async function bundleCli(srcDir: string, outDir: string): Promise<string> {
  const entry = join(srcDir, 'cli', 'main.ts');
  const bundleDir = join(outDir, 'cli');
  // Express and its dependencies are CommonJS and call require(); ESM output has none unless given one. Likewise
  // `__filename`, which write-file-atomic (the verify command's calibration file) hashes into its temporary names:
  // without it, a write failed. No bundled module reads `__dirname`; checkNoDirname() keeps it so.
  const banner = {
    js: "import { createRequire as __createRequire } from 'node:module'; import { fileURLToPath as __fileURLToPath } from 'node:url'; const require = __createRequire(import.meta.url); const __filename = __fileURLToPath(import.meta.url);",
  };
  await build({
    entryPoints: { main: entry },
    outdir: bundleDir,
    // Dynamic import()s (the verify command, the OpenAPI document, busboy) become chunks loaded when first used.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    bundle: true,
    // Fewer bytes to read and parse at every start; identifiers stay, so stack traces and class names read as in src/.
    minifyWhitespace: true,
    minifySyntax: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // ffmpeg-static and @ffmpeg-installer/ffmpeg find their binaries next to their own files, and better-sqlite3 loads
    // its native addon (built for the installed Node) from its own build/ folder: all three must stay packages.
    external: ['ffmpeg-static', '@ffmpeg-installer/ffmpeg', 'better-sqlite3'],
    banner,
    plugins: [ownModuleUrls(srcDir, dirname(entry)), jsonAsParse()],
    legalComments: 'none',
    logLevel: 'warning',
  });
  await checkNoDirname(bundleDir);
  return join(bundleDir, 'main.js');
}
