// Sets up .venv-conformance once (python3 -m venv + pip install of the pinned requirements); fails fast when Python is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class SetupError extends Error {}

function run(command: string, args: string[], what: string, fix: string): void {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error) throw new SetupError(`${what}: ${result.error.message}. ${fix}`);
  if (result.status !== 0) throw new SetupError(`${what} exited with ${result.status}. ${fix}`);
}

/** Returns the venv's python; installs only when the venv is absent or requirements.txt changed since. */
export function ensureVenv(root: string): string {
  const venv = join(root, '.venv-conformance');
  const python = join(venv, 'bin', 'python');
  const requirements = join(root, 'conformance', 'requirements.txt');
  const stamp = join(venv, '.installed-requirements');
  const wanted = readFileSync(requirements, 'utf8');
  if (existsSync(python) && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return python;

  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new SetupError(
      'python3 is missing. The conformance suite runs the real FastAPI next to the emulator: install Python 3.10+ ' +
        '(Debian/Ubuntu: apt-get install python3 python3-venv) and run `npm run conformance` again.',
    );
  if (!existsSync(python))
    run(
      'python3',
      ['-m', 'venv', venv],
      'python3 -m venv .venv-conformance',
      'Install the venv module (Debian/Ubuntu: apt-get install python3-venv), then retry.',
    );
  console.log('conformance: installing the pinned FastAPI stack into .venv-conformance (once)...');
  run(
    python,
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', requirements],
    'pip install -r conformance/requirements.txt',
    'Check that pip can reach a package index (pip config list), then retry.',
  );
  writeFileSync(stamp, wanted);
  return python;
}
