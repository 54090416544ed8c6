// `npm start`: builds only when dist/ is older than its sources, then runs the CLI in this same process (one PID to stop).
// Plain JavaScript on purpose: a TypeScript loader would cost more start-up time than the check saves.
// @ts-check
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist', 'cli.js');
/** What the build reads; src/console/ is served from src/ as it is, so it never needs a build. */
const INPUTS = [
  'src',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.ts',
  'scripts/bundle-cli.ts',
];

/** @param {string} path @returns {number} */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  if (path === join(root, 'src', 'console')) return 0;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const builtAt = statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (builtAt < Math.max(...INPUTS.map((p) => newest(join(root, p))))) {
  process.stderr.write('media-gen-emulator: dist/ is missing or older than src/; building (npm run build)...\n');
  const build = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(pathToFileURL(built).href);
