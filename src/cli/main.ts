#!/usr/bin/env node
// The command line: options from flags, env and file; start; print the URL and seeded key; stop cleanly on signals.
import './memory-mode.js';
import { isLoopbackHost, OptionError } from '../config.js';
import { CatalogueError } from '../domain/catalogue.js';
import { CodedError } from '../domain/errors.js';
import { createEmulator } from '../emulator.js';
import type { Emulator, Listening, Started } from '../emulator-types.js';
import { StoreRefused } from '../infra/sqlite-connection.js';
import { CalibrationError } from '../verify/calibration.js';
import { VERSION } from '../version.js';
import { compositionExtras, readEnvironment } from './environment.js';
import { CliError, type CliOptions, cliOptions, HELP, metaCommand } from './options.js';

async function main() {
  if (process.argv[2] === 'verify') {
    // Loaded only for this command, so starting the emulator pays nothing for it.
    const { runVerifyCommand } = await import('../verify/command.js');
    process.exitCode = await runVerifyCommand(process.argv.slice(3), process.env);
    return;
  }
  const command = metaCommand(process.argv.slice(2));
  if (command) {
    process.stdout.write(command === 'help' ? HELP : `${VERSION}\n`);
    return;
  }
  const options = cliOptions(process.argv.slice(2), process.env) as CliOptions;
  const { port, host, ...rest } = options;
  const log = (line: string) => process.stdout.write(`[emulator] ${line}\n`);
  const emulator = createEmulator({ ...rest, log }, compositionExtras(readEnvironment()));
  const stateFile = emulator.options.stateFile;
  // From here on, so a signal during start-up (state loading, ffmpeg probes) also stops cleanly and exits 0.
  let stopping = false;
  let started = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    // A safety net only: close() kills ffmpeg and removes the work directory well inside a second.
    const force = setTimeout(() => process.exit(1), stateFile ? 5000 : 1000);
    force.unref();
    // close() stops everything, then makes the last commit to the store of record, so what is written is final.
    emulator.close().then(
      () => {
        if (stateFile && started) log(`state saved to ${stateFile}`);
        process.exit(0);
      },
      (error: unknown) => {
        if (stateFile) log(`could not save state to ${stateFile}: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  let running: Started & Listening;
  try {
    // Listen before the ffmpeg probes finish: the renderer logs its own line, and health says "starting" until then.
    running = await emulator.start({ port, host });
  } catch (error) {
    // Stopped while starting: stop() exits once the emulator is closed; nothing went wrong.
    if (stopping) return;
    throw error;
  }
  started = true;
  const { url, loaded } = running;
  process.stdout.write(await banner(emulator, url, host, loaded));
  if (emulator.options.controlPlane && !emulator.adminToken() && !isLoopbackHost(host))
    log(
      `WARNING: --no-admin-token: the control plane is open to anyone who can reach ${host}:${port}: they can read every key secret and change balances. Remove --no-admin-token or bind to 127.0.0.1.`,
    );
}

async function banner(emulator: Emulator, url: string, host: string, loaded: boolean): Promise<string> {
  const { control } = emulator;
  const stateFile = emulator.options.stateFile;
  const scenario = (await control.scenario.progress())?.name;
  const token = emulator.adminToken();
  const generated = token !== undefined && !emulator.options.adminToken;
  const controlPlane = !emulator.options.controlPlane
    ? 'off (health only)'
    : token
      ? `on, admin token required${generated ? ' (generated: bound beyond loopback)' : ''}`
      : isLoopbackHost(host)
        ? 'on, open (loopback only)'
        : 'on, OPEN (--no-admin-token)';
  const [seeded] = await control.accounts();
  // The token travels in the fragment, which browsers never send: it stays out of requests and logs.
  const consoleUrl = `${url}/_emulator/console${token ? `#token=${encodeURIComponent(token)}` : ''}`;
  return [
    `media-gen-emulator ${VERSION} listening on ${url}`,
    `  API base URL:   ${url}/v1/media`,
    `  API key:        ${emulator.apiKey}`,
    `  Balance:        ${seeded?.balance ?? 0} credit${seeded?.balance === 1 ? '' : 's'}`,
    `  Timing:         ${emulator.options.timing}`,
    `  Health:         ${url}/_emulator/health`,
    ...(emulator.options.controlPlane ? [`  Console:        ${consoleUrl}`] : []),
    `  Control plane:  ${controlPlane}${emulator.options.controlPlane ? ` (${url}/_emulator/*, docs/control-plane.md)` : ''}`,
    ...(token && generated ? [`  Admin token:    ${token}`] : []),
    ...(scenario ? [`  Scenario:       ${scenario}`] : []),
    ...(stateFile
      ? [
          `  State file:     ${stateFile} (SQLite, ${loaded ? 'loaded' : 'new'}; every change committed before it is acknowledged, sync ${emulator.options.stateSync})`,
        ]
      : []),
    '',
    `  curl -H "Authorization: Bearer ${emulator.apiKey}" ${url}/v1/media/models`,
    '',
  ].join('\n');
}

main().catch((error: unknown) => {
  if (
    error instanceof CliError ||
    error instanceof OptionError ||
    error instanceof CatalogueError ||
    error instanceof CodedError ||
    error instanceof StoreRefused ||
    error instanceof CalibrationError
  ) {
    process.stderr.write(`media-gen-emulator: ${error.message}\n`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    process.stderr.write(`media-gen-emulator: the port is already in use; choose another with --port or PORT.\n`);
    process.exit(2);
  }
  process.stderr.write(`media-gen-emulator: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
