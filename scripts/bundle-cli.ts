// Bundles the CLI into one ESM file with esbuild: one module to load instead of ~150 plus Express's tree, so it starts fast.
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * Modules find shipped files (fixtures/, src/console/, package.json) relative to their own URL. In one bundle every
 * module would share the bundle's URL, so each `import.meta.url` is rewritten to where that module sits in dist/.
 */
function ownModuleUrls(srcDir: string): Plugin {
  return {
    name: 'own-module-urls',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        if (!source.includes('import.meta.url') || !path.startsWith(srcDir)) return { contents: source, loader: 'ts' };
        const own = `./${relative(srcDir, path).replaceAll('\\', '/').replace(/\.ts$/, '.js')}`;
        return {
          contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`),
          loader: 'ts',
        };
      });
    },
  };
}

/** Writes `<outDir>/cli.js` from `<srcDir>/cli.ts`; the bundle must sit directly in dist/ for the URLs above to hold. */
export async function bundleCli(srcDir: string, outDir: string): Promise<string> {
  const outfile = join(outDir, 'cli.js');
  await build({
    entryPoints: [join(srcDir, 'cli.ts')],
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
    plugins: [ownModuleUrls(srcDir)],
    legalComments: 'none',
    logLevel: 'warning',
  });
  return outfile;
}
