// The --config file: read, checked against the schema the option table makes, its paths made relative to the file.
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isScenarioPath } from '../emulation/scenarios/scenario-files.js';
import type { CliOptions } from './option-table.js';
import { CliError } from './option-values.js';
import { CONFIG_SCHEMA, describeIssue, optionIssues } from './option-schema.js';

const always = () => true;
const hasSeparator = (value: string) => value.includes('/') || value.includes('\\');

/** Which options hold paths, and when a value is one (a scenario or ffmpeg may be a name instead). */
const PATH_OPTIONS = [
  ['stateFile', always],
  ['catalogue', always],
  ['calibration', always],
  ['scenario', isScenarioPath],
  ['ffmpegPath', hasSeparator],
] as const;

/**
 * Paths in a config file are relative to the file, as in tsconfig or compose files, so one config serves from any
 * working directory. A scenario name ("flaky-network") and an ffmpeg found on PATH ("ffmpeg") stay as written.
 */
function resolvePaths(options: Record<string, unknown>, folder: string): Partial<CliOptions> {
  const resolved = { ...options };
  for (const [key, isPath] of PATH_OPTIONS) {
    const value = resolved[key];
    if (typeof value === 'string' && value !== '' && isPath(value)) resolved[key] = resolve(folder, value);
  }
  return resolved as Partial<CliOptions>;
}

/** Far above any options file, inline catalogue included; a larger file is a wrong path, not a config. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

export function readConfigFile(path: string): Partial<CliOptions> {
  let source: string;
  try {
    const { size } = statSync(path);
    if (size > MAX_CONFIG_BYTES)
      throw new CliError(`config file ${path} holds ${size} bytes, more than an options file ever needs (16 MiB).`);
    source = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a folder' : `cannot be read (${code})`;
    throw new CliError(
      `config file ${path} ${why}; --config and MEDIA_EMULATOR_CONFIG take a JSON file of options (docs/api.md#configuration).`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (error) {
    throw new CliError(`config file ${path} is not JSON: ${(error as Error).message}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new CliError(`config file ${path}: the file must hold a JSON object of options (docs/api.md#configuration).`);
  const issues = optionIssues(CONFIG_SCHEMA, data);
  if (issues.length > 0) throw new CliError(`config file ${path}: ${issues.map(describeIssue).join('; ')}`);
  return resolvePaths(data as Record<string, unknown>, dirname(resolve(path)));
}
