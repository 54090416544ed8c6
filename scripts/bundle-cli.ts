// Bundles the CLI into one ESM file with esbuild: one module to load instead of ~150 plus Express's tree, so it starts fast.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * Modules find shipped files (fixtures/, src/console/, package.json) relative to their own URL. In one bundle every
 * module would share the bundle's URL, so each `import.meta.url` is rewritten to where that module sits in dist/.
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

/** Writes `<outDir>/cli/main.js` from `<srcDir>/cli/main.ts`, where tsc puts it, so the URLs above hold. */
export async function bundleCli(srcDir: string, outDir: string): Promise<string> {
  const entry = join(srcDir, 'cli', 'main.ts');
  const outfile = join(outDir, 'cli', 'main.js');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // ffmpeg-static finds its binary next to its own file, so it must stay a package.
    external: ['ffmpeg-static'],
    // Express and its dependencies are CommonJS and call require(); ESM output has none unless given one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    plugins: [ownModuleUrls(srcDir, dirname(entry))],
    legalComments: 'none',
    logLevel: 'warning',
  });
  return outfile;
}
