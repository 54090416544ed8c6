// The typed control client over HTTP: the registry's operations as requests, for tests in another process (CLI, Docker).
import type { Control } from './client.js';
import { type ConnectOptions, connectOver, type Routes } from './registry/fetch-client.js';
import { operationEntries } from './registry/registry.js';
import { scenarioLoadBody } from './scenarios/scenario-files.js';

export { type ConnectOptions, EmulatorControlError } from './registry/fetch-client.js';

/**
 * Connects to a running emulator (CLI, Docker, another process) at `url`, e.g. `http://127.0.0.1:8787`.
 * Nothing is sent until the first call; a refused call rejects with an EmulatorControlError carrying `code`.
 */
export function connectEmulator(url: string, options: ConnectOptions = {}): Control {
  const routes = Object.fromEntries(operationEntries().map(([id, { method, path }]) => [id, { method, path }]));
  return connectOver(routes as Routes, url, options, scenarioLoadBody);
}
