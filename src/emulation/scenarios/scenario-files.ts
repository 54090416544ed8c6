// Scenario files: by name from fixtures/scenarios/, or by path from trusted callers only; regular files under a size cap.
import '../faults/pattern-engine-node.js';
import { closeSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inlineScenarioBody } from '../client.js';
import { PlaneError } from '../error-codes.js';
import type { ScenarioDefinition, ScenarioInput } from './scenario-schema.js';
import { parseScenario } from './scenario-parse.js';
import { type HostScenarios, scenarioNotFound } from './scenario-shelf.js';

// Not `new URL(…, import.meta.url)`: Vite (vitest's jsdom environment) rewrites that pattern into an http: asset URL.
const SCENARIO_DIRECTORY: string = resolve(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/scenarios');

/** Far above any real scenario (the shipped ones are under 2 KB); a bigger "scenario" is not one. */
const MAX_SCENARIO_BYTES = 256 * 1024;

const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** Names of the scenarios shipped in fixtures/scenarios/. */
export function availableScenarios(): string[] {
  try {
    return readdirSync(SCENARIO_DIRECTORY)
      .filter((f) => f.endsWith('.json'))
      .map((f) => basename(f, '.json'))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Reads a regular file of at most MAX_SCENARIO_BYTES. Opened once and checked on the open descriptor, so a device
 * (/dev/zero), a FIFO or /proc file cannot block or fill memory, and no message ever quotes what the file holds.
 */
function readSmallRegularFile(file: string, shown: string): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    throw new PlaneError('scenario_not_found', `Scenario file ${shown} does not exist or cannot be read.`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      throw new PlaneError('invalid_scenario', `Scenario file ${shown} is not a regular file; point to a .json file.`);
    if (stats.size > MAX_SCENARIO_BYTES)
      throw new PlaneError(
        'invalid_scenario',
        `Scenario file ${shown} has ${stats.size} bytes; a scenario file may have at most ${MAX_SCENARIO_BYTES}.`,
      );
    const buffer = Buffer.alloc(stats.size);
    let read = 0;
    while (read < stats.size) {
      const n = readSync(fd, buffer, read, stats.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function parseJson(text: string, shown: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // JSON.parse quotes the text it choked on: never pass that on.
    throw new PlaneError('invalid_scenario', `Scenario ${shown} is not valid JSON.`);
  }
}

const parseFile = (text: string, shown: string): ScenarioDefinition => parseScenario(parseJson(text, shown), shown);

/** A shipped scenario by name; the only kind of file an HTTP caller can name. */
export function loadNamedScenario(name: string): ScenarioDefinition {
  if (!SCENARIO_NAME.test(name) || !availableScenarios().includes(name))
    throw scenarioNotFound(name, availableScenarios());
  return parseFile(readSmallRegularFile(resolve(SCENARIO_DIRECTORY, `${name}.json`), `'${name}'`), `'${name}'`);
}

/** A scenario option or client argument names a file, not a shipped scenario, when it has a path separator or ends in `.json`. */
export const isScenarioPath = (nameOrPath: string) =>
  nameOrPath.includes('/') || nameOrPath.includes('\\') || nameOrPath.endsWith('.json');

export function loadScenarioFile(nameOrPath: string): ScenarioDefinition {
  if (!isScenarioPath(nameOrPath)) return loadNamedScenario(nameOrPath);
  const file = resolve(nameOrPath);
  return parseFile(readSmallRegularFile(file, file), file);
}

/**
 * What a control client sends to load `scenario`: a shipped name as is, an object inline, and a file (isScenarioPath)
 * read and checked on the client's side and sent inline, since the emulator never opens a path it is sent.
 */
export function scenarioLoadBody(scenario: string | ScenarioInput): { name: string } | { scenario: ScenarioInput } {
  if (typeof scenario !== 'string' || !isScenarioPath(scenario)) return inlineScenarioBody(scenario);
  const file = resolve(scenario);
  const data = parseJson(readSmallRegularFile(file, file), file);
  // Checked here too, so a refusal names the file rather than "(body)".
  parseScenario(data, file);
  return { scenario: data as ScenarioInput };
}

/** Node's shelf: the shipped scenarios in fixtures/scenarios/, and files by path for trusted callers. */
export const nodeScenarioShelf: HostScenarios = {
  available: availableScenarios,
  named: loadNamedScenario,
  fromOption: loadScenarioFile,
  loadBody: scenarioLoadBody,
};
