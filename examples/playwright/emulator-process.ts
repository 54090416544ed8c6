// The emulator for the example: the CLI in a child process on a free port, or one already running at EMULATOR_URL (Docker).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface EmulatorProcess {
  url: string;
  apiKey: string;
  stop(): Promise<void>;
}

/** In your project this is `node_modules/media-gen-emulator/dist/cli/main.js` (what `npx media-gen-emulator` runs). */
const CLI = process.env.EMULATOR_CLI ?? fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export async function startEmulatorProcess(): Promise<EmulatorProcess> {
  const apiKey = process.env.EMULATOR_API_KEY ?? 'sk-media-local-emulator-key';
  if (process.env.EMULATOR_URL) return { url: process.env.EMULATOR_URL, apiKey, stop: async () => {} };
  if (!existsSync(CLI)) throw new Error(`No emulator CLI at ${CLI}: run "npm run build" first, or set EMULATOR_CLI.`);
  const child = spawn(process.execPath, [CLI, '--port', '0', '--seed', '1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the emulator CLI exited with ${code} before listening:\n${out}`)));
  });
  return { url, apiKey, stop: () => stopChild(child) };
}

/** SIGTERM, as Docker and CI send it; the CLI exits in well under a second. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
