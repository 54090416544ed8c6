// The two servers the benchmark compares, each alone in its own process: the emulator (compiled, as users run it) and a bare Express 5 app.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranspiledPackage } from '../scripts/transpile-dist.js';

export interface ServerProcess {
  url: string;
  apiKey: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the emulator with `options`, prints its URL, and stops when stdin closes. */
const EMULATOR = `import { startEmulator } from './dist/index.js';
const running = await startEmulator(JSON.parse(process.argv[2] ?? '{}'));
process.stdout.write(JSON.stringify({ url: running.url, apiKey: running.apiKey, pid: process.pid }) + '\\n');
process.stdin.resume();
process.stdin.on('end', () => void running.close().then(() => process.exit(0)));
`;

/**
 * The baseline: Express 5 with express.json(), answering each benchmarked route with a fixed JSON body
 * (the emulator's own answer for that route, captured once, so both send the same bytes).
 */
const BARE = `import express from 'express';
const fixed = JSON.parse(process.argv[2] ?? '{}');
const app = express();
app.use(express.json());
app.post('/v1/media/estimate', (_req, res) => res.status(200).json(fixed.estimate ?? {}));
app.post('/v1/media/generations', (_req, res) => res.status(202).json(fixed.submit ?? {}));
app.get('/v1/media/generations', (_req, res) => res.status(200).json(fixed.list ?? {}));
app.get('/v1/media/generations/:id', (_req, res) => res.status(200).json(fixed.get ?? {}));
app.get('/health', (_req, res) => res.status(200).json({ status: 'ok' }));
const port = Number(process.env.PORT ?? 0);
const server = app.listen(port, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port, apiKey: '', pid: process.pid }) + '\\n');
});
process.stdin.resume();
process.stdin.on('end', () => server.close(() => process.exit(0)));
`;

export function writeServerScripts(dist: TranspiledPackage): { emulator: string; bare: string } {
  const emulator = join(dist.root, 'bench-emulator.mjs');
  const bare = join(dist.root, 'bench-bare.mjs');
  writeFileSync(emulator, EMULATOR);
  writeFileSync(bare, BARE);
  return { emulator, bare };
}

export function startProcess(
  script: string,
  arg: object,
  nodeArgs: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, script, JSON.stringify(arg)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('\n')) return;
      child.stdout!.off('data', onData);
      const info = JSON.parse(out.split('\n')[0]) as { url: string; apiKey: string; pid: number };
      resolve({
        ...info,
        child,
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.stdin!.end();
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
}
