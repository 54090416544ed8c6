// Builds dist/ only when it is missing or older than what the build reads; `node scripts/ensure-build.mjs` or imported.
// Plain JavaScript on purpose: a TypeScript loader would cost more start-up time than the check saves.
// @ts-check
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BUILT_CLI = join(ROOT, 'dist', 'cli', 'main.js');
/**
 * What the build writes: the CLI, the console's control client, which src/console/ serves beside its own files, and
 * the msw pack's browser bundle (the examples import media-gen-emulator/msw from dist/).
 */
const BUILT = [BUILT_CLI, join(ROOT, 'src', 'console', 'control-client.js'), join(ROOT, 'dist', 'msw', 'browser.js')];
/** What the build reads; src/console/'s own files are served as they are, so they never need a build. */
const INPUTS = [
  'src',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.ts',
  'scripts/bundle-cli.ts',
  'scripts/bundle-console.ts',
  'scripts/bundle-msw.ts',
];

/** @param {string} path @returns {number} */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  if (path === join(ROOT, 'src', 'console')) return 0;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export function ensureBuild() {
  const builtAt = Math.min(...BUILT.map((file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0));
  if (builtAt >= Math.max(...INPUTS.map((p) => newest(join(ROOT, p))))) return;
  process.stderr.write('media-gen-emulator: dist/ is missing or older than src/; building (npm run build)...\n');
  const build = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'build.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuild();
