// Start-up: startEmulator() until ready (median of 10 in one process), and a whole process from spawn to its first 200.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { TranspiledPackage } from '../scripts/transpile-dist.js';

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** Times `runs` startEmulator() calls in one process (the module already imported, as a test file would have it). */
const IN_PROCESS = `import { startEmulator } from './dist/index.js';
const runs = Number(process.argv[2] ?? 10);
const times = [];
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  const running = await startEmulator();
  times.push(performance.now() - started);
  await running.close();
}
process.stdout.write(JSON.stringify(times) + '\\n');
`;

export function inProcessStartups(dist: TranspiledPackage, runs: number): Promise<number[]> {
  const script = join(dist.root, 'bench-startup.mjs');
  writeFileSync(script, IN_PROCESS);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, String(runs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`start-up script exited with ${code}`)),
    );
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const status = (port: number, path: string) =>
  new Promise<number>((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.end();
  });

/** Milliseconds from spawn until `path` answers 200, polling every 2 ms; the process is killed afterwards. */
export async function processToFirst200(
  args: string[],
  path: string,
  env: NodeJS.ProcessEnv = {},
  limitMs = 20_000,
): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  // stdin stays open: the bare server stops when it closes.
  const child = spawn(
    process.execPath,
    args.map((a) => a.replace('{port}', String(port))),
    { stdio: ['pipe', 'ignore', 'ignore'], env: { ...process.env, PORT: String(port), ...env } },
  );
  try {
    while (performance.now() - started < limitMs) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode} before answering`);
      if ((await status(port, path)) === 200) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    throw new Error(`${args.join(' ')} gave no 200 on ${path} within ${limitMs} ms`);
  } finally {
    // A child that already died (a crash at start) sends no second 'exit'.
    if (child.exitCode === null && child.signalCode === null)
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
  }
}
