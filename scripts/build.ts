// `npm run build` (and `prepare`): type-checked JavaScript and .d.ts files in dist/ from tsc, then the CLI bundled by esbuild.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundle-cli.js';

/** Only this file and bundle-cli.ts are needed to build (the Docker build stage copies just these). */
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

const dist = join(REPO_ROOT, 'dist');
// A clean dist/: files of modules since removed must not ship.
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(REPO_ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
await bundleCli(join(REPO_ROOT, 'src'), dist);
process.stdout.write(`built ${dist} (library: tsc; CLI: esbuild bundle with chunks)\n`);
