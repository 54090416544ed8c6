// Checks that the emulator's multipart limits are the installed Starlette's own defaults (FastAPI calls `request.form()`
// with none of its own), so a Starlette upgrade that moves them fails the conformance run instead of drifting.
import { spawnSync } from 'node:child_process';
import { STARLETTE_LIMITS } from '../src/http/body/form-rules.js';
import { SetupError } from './venv.js';

const READ_DEFAULTS = [
  'import inspect, json',
  'from starlette.requests import Request',
  'p = inspect.signature(Request.form).parameters',
  'print(json.dumps({k: p[k].default for k in ("max_files", "max_fields", "max_part_size")}))',
].join('\n');

export function checkStarletteLimits(python: string): void {
  const result = spawnSync(python, ['-c', READ_DEFAULTS], { encoding: 'utf8' });
  if (result.status !== 0) throw new SetupError(`could not read Starlette's form limits: ${result.stderr.trim()}`);
  const starlette = JSON.parse(result.stdout) as { max_files: number; max_fields: number; max_part_size: number };
  const ours = {
    max_files: STARLETTE_LIMITS.maxFiles,
    max_fields: STARLETTE_LIMITS.maxFields,
    max_part_size: STARLETTE_LIMITS.maxPartBytes,
  };
  if (JSON.stringify(starlette) !== JSON.stringify(ours))
    throw new SetupError(
      `Starlette's form limits are ${JSON.stringify(starlette)}, the emulator's ${JSON.stringify(ours)}: update STARLETTE_LIMITS in src/http/multipart-form.ts.`,
    );
}
