// Bundles media-gen-emulator/msw for browsers with esbuild: dist/msw/browser.js and its chunks, its dependencies left to the page's
// bundler (they are the package's dependencies, and msw its peer), the shipped catalogue and scenarios inlined.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Writes `<dist>/msw/browser.js` (and its lazy chunks in `<dist>/msw/chunks/`) from `<srcDir>/msw/browser.ts`; answers its path. */
export async function bundleMswBrowser(srcDir: string, dist: string, packageJson: string): Promise<string> {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  const outdir = join(dist, 'msw');
  await build({
    entryPoints: [join(srcDir, 'msw', 'browser.ts')],
    outdir,
    // The pack's own dynamic imports (the muxer, the OpenAPI document) stay chunks the page fetches when they run;
    // without splitting esbuild would inline them, and their dependencies (Mediabunny) would load with the entry.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // A dependency's subpath (msw's core, @noble/hashes/sha2.js) is external too.
    external: [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)].flatMap((name) => [
      name,
      `${name}/*`,
    ]),
    logLevel: 'error',
  });
  return join(outdir, 'browser.js');
}
