// Sets up .venv-conformance (python3 -m venv + pip install of pinned requirement files); fails fast when Python is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class SetupError extends Error {}

function run(command: string, args: string[], what: string, fix: string): void {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error) throw new SetupError(`${what}: ${result.error.message}. ${fix}`);
  if (result.status !== 0) throw new SetupError(`${what} exited with ${result.status}. ${fix}`);
}

/** A pinned requirements file, relative to the root, and a folder of vendored wheels it may name (`--find-links`). */
export interface Requirements {
  file: string;
  findLinks?: string;
}

/** The FastAPI stack the conformance suite compares against. */
const FASTAPI: Requirements = { file: 'conformance/requirements.txt' };

/** Each file's stamp in the venv: the text it was installed from. The FastAPI stack's keeps its old name. */
const stampOf = (venv: string, { file }: Requirements) =>
  join(venv, file === FASTAPI.file ? '.installed-requirements' : `.installed-${file.replace(/[^A-Za-z0-9.]+/g, '-')}`);

/**
 * Returns the venv's python, with the FastAPI stack and any `more` requirement files installed; installs only a file
 * whose text changed since its last install (or a fresh venv).
 */
export function ensureVenv(root: string, more: Requirements[] = []): string {
  const venv = join(root, '.venv-conformance');
  const python = join(venv, 'bin', 'python');
  const stale = [FASTAPI, ...more].filter((r) => {
    const stamp = stampOf(venv, r);
    return (
      !existsSync(python) ||
      !existsSync(stamp) ||
      readFileSync(stamp, 'utf8') !== readFileSync(join(root, r.file), 'utf8')
    );
  });
  if (stale.length === 0) return python;

  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new SetupError(
      'python3 is missing. The conformance suite runs the real FastAPI next to the emulator: install Python 3.11+ ' +
        '(Debian/Ubuntu: apt-get install python3 python3-venv) and run `npm run conformance` again.',
    );
  if (!existsSync(python))
    run(
      'python3',
      ['-m', 'venv', venv],
      'python3 -m venv .venv-conformance',
      'Install the venv module (Debian/Ubuntu: apt-get install python3-venv), then retry.',
    );
  for (const requirements of stale) {
    console.log(`conformance: installing ${requirements.file} into .venv-conformance (once)...`);
    const links = requirements.findLinks ? ['--find-links', join(root, requirements.findLinks)] : [];
    run(
      python,
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...links, '-r', join(root, requirements.file)],
      `pip install -r ${requirements.file}`,
      'Check that pip can reach a package index (pip config list), then retry.',
    );
    writeFileSync(stampOf(venv, requirements), readFileSync(join(root, requirements.file), 'utf8'));
  }
  return python;
}
