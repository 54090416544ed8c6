#!/usr/bin/env node
// The command line: options from flags, env and file; start; print the URL and seeded key; stop cleanly on signals.
import { CliError, cliOptions, HELP } from './options.js';
import { loadStateFile, saveStateFile } from '../emulation/state/state-file.js';
import { CatalogueError } from '../domain/catalogue.js';
import { DomainError } from '../domain/errors.js';
import { createEmulator } from '../emulator.js';
import { compositionExtras, readEnvironment } from './environment.js';
import { VERSION } from '../version.js';

async function main() {
  const options = cliOptions(process.argv.slice(2), process.env);
  if (options === 'help') {
    process.stdout.write(HELP);
    return;
  }
  const { port, host, ...rest } = options;
  const log = (line: string) => process.stdout.write(`[emulator] ${line}\n`);
  const emulator = createEmulator({ ...rest, log }, compositionExtras(readEnvironment()));
  const { control } = emulator;
  const stateFile = emulator.options.stateFile;
  const loaded = stateFile ? await loadStateFile(control, stateFile) : false;
  // Listen before the ffmpeg probes finish: the renderer logs its own line, and health says "starting" until then.
  const { url } = await emulator.listen(port, host);
  const scenario = (await control.scenario.progress())?.name;
  const controlPlane = !emulator.options.controlPlane
    ? 'off (health only)'
    : emulator.options.adminToken
      ? 'on, admin token required'
      : 'on, open';
  const [seeded] = await control.accounts();
  process.stdout.write(
    [
      `media-gen-emulator ${VERSION} listening on ${url}`,
      `  API base URL:   ${url}/v1/media`,
      `  API key:        ${emulator.apiKey}`,
      `  Balance:        ${seeded?.balance ?? 0} credits`,
      `  Timing:         ${emulator.options.timing}`,
      `  Health:         ${url}/_emulator/health`,
      ...(emulator.options.controlPlane ? [`  Console:        ${url}/_emulator/console`] : []),
      `  Control plane:  ${controlPlane}${emulator.options.controlPlane ? ` (${url}/_emulator/*, docs/control-plane.md)` : ''}`,
      ...(scenario ? [`  Scenario:       ${scenario}`] : []),
      ...(stateFile ? [`  State file:     ${stateFile} (${loaded ? 'loaded' : 'new'}; saved on exit)`] : []),
      '',
      `  curl -H "Authorization: Bearer ${emulator.apiKey}" ${url}/v1/media/models`,
      '',
    ].join('\n'),
  );
  if (emulator.options.controlPlane && !emulator.options.adminToken && !isLoopback(host))
    log(
      `warning: the control plane is open to anyone who can reach ${host}:${port}; set EMULATOR_ADMIN_TOKEN or use --no-control-plane`,
    );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(0), stateFile ? 5000 : 800);
    force.unref();
    const save = stateFile
      ? saveStateFile(control, stateFile).then(
          () => log(`state saved to ${stateFile}`),
          (error: unknown) => log(`could not save state to ${stateFile}: ${(error as Error).message}`),
        )
      : Promise.resolve();
    save
      .then(() => emulator.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof CliError || error instanceof CatalogueError || error instanceof DomainError) {
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

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
