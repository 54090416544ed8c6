// Runs the pytest recipe (examples/python) as docs/sandboxes.md shows it: pytest -n 2 in .venv-conformance, whose
// pytest, pytest-xdist and httpx come from examples/python/requirements.txt. Run: npm run example:python
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureVenv, SetupError } from '../conformance/venv.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

try {
  const python = ensureVenv(ROOT, [{ file: 'examples/python/requirements.txt' }]);
  // No cache folder in the checkout; the conftest starts the CLI (dist/, built by npm run example:python first).
  const pytest = spawnSync(python, ['-m', 'pytest', '-n', '2', '-p', 'no:cacheprovider', 'examples/python'], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: 300_000,
  });
  if (pytest.error)
    throw new SetupError(`${join('.venv-conformance', 'bin', 'python')} -m pytest: ${pytest.error.message}`);
  process.exit(pytest.status ?? 1);
} catch (error) {
  console.error(error instanceof SetupError ? `pytest recipe: ${error.message}` : error);
  process.exit(error instanceof SetupError ? 2 : 1);
}
