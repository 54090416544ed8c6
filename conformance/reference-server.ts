// Runs the FastAPI reference app (conformance/serve.py) under uvicorn on a free loopback port.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SetupError } from './venv.js';

export interface ReferenceServer {
  url: string;
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

export function startReference(python: string, root: string): Promise<ReferenceServer> {
  const child: ChildProcess = spawn(python, [join(root, 'conformance', 'serve.py')], {
    cwd: join(root, 'conformance'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void close();
      reject(new SetupError(`The reference app did not start within ${START_TIMEOUT_MS / 1000} s.\n${stderr}`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new SetupError(`The reference app exited with ${code} before listening.\n${stderr}`));
    });
    if (!child.stdout) return reject(new SetupError('The reference app has no stdout to read its port from.'));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const match = /^PORT (\d+)$/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ url: `http://127.0.0.1:${match[1]}`, close });
    });
  });
}
