// `npm run build` (and `prepare`): type-checked JavaScript and .d.ts files in dist/ from tsc, then the CLI and the
// console's control client bundled by esbuild.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundle-cli.js';
import { bundleConsole } from './bundle-console.js';
import { bundleMswBrowser } from './bundle-msw.js';

/** Only this file, bundle-cli.ts, bundle-console.ts and bundle-msw.ts are needed to build (the Docker build stage copies just these). */
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

const dist = join(REPO_ROOT, 'dist');
// A clean dist/: files of modules since removed must not ship.
rmSync(dist, { recursive: true, force: true });
// TypeScript 7's native tsc, installed as @typescript/native (the name `typescript` is TypeScript 6's JavaScript API, for
// tools that import it: dependency-cruiser, scripts/transpile-dist.ts). Its exports map hides bin/, hence package.json.
const tsc = join(dirname(createRequire(import.meta.url).resolve('@typescript/native/package.json')), 'bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(REPO_ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
await bundleCli(join(REPO_ROOT, 'src'), dist);
const consoleClient = await bundleConsole(join(REPO_ROOT, 'src'));
await bundleMswBrowser(join(REPO_ROOT, 'src'), dist, join(REPO_ROOT, 'package.json'));
process.stdout.write(
  `built ${dist} (library: tsc; CLI: esbuild bundle with chunks; media-gen-emulator/msw for browsers: esbuild bundle) and ${consoleClient}\n`,
);
