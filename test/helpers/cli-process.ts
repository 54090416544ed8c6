// Runs the real CLI (the esbuild bundle, as installed) as a child process in its own TMPDIR, reads its banner, stops it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { bundleCli } from '../../scripts/bundle-cli.js';
import { REPO_ROOT, type TranspiledPackage, transpileDist } from '../../scripts/transpile-dist.js';

/**
 * One package per test file, with the CLI bundled as `npm run build` ships it (the per-module transpile hid a bundle
 * that could not open a --state-file). No TypeScript loader in the child, so nothing but the emulator uses TMPDIR.
 */
let shipped: Promise<TranspiledPackage> | undefined;
afterAll(async () => (await shipped)?.remove());

async function shippedPackage(): Promise<TranspiledPackage> {
  const dist = transpileDist();
  await bundleCli(join(REPO_ROOT, 'src'), join(dist.root, 'dist'));
  return dist;
}

export interface CliProcess {
  child: ChildProcess;
  url: string;
  /** The admin token printed in the banner, when one was generated. */
  token?: string;
  output: () => string;
  tmp: string;
}

/** A fresh directory to serve as the child's TMPDIR, so what it leaves behind can be listed exactly. */
export const freshTmp = () => mkdtempSync(join(tmpdir(), 'sec-test-'));

export async function startCli(
  args: string[],
  options: { tmp?: string; env?: Record<string, string> } = {},
): Promise<CliProcess> {
  const tmp = options.tmp ?? freshTmp();
  shipped ??= shippedPackage();
  const dist = await shipped;
  const child = spawn(process.execPath, [dist.cli, '--port', '0', ...args], {
    cwd: dist.root,
    env: { ...process.env, TMPDIR: tmp, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CLI printed no banner within 30 s:\n${out}`));
    }, 30_000);
    const check = () => {
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (!url || !out.includes('curl -H')) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve({ child, url, token: /Admin token:\s+(\S+)/.exec(out)?.[1], output: () => out, tmp });
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the CLI exited with ${code} before listening:\n${out}`));
    });
  });
}

/** Sends the signal and resolves with the exit code and how long the exit took. */
export function stopCli(p: CliProcess, signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve({ code: p.child.exitCode, ms: 0 });
    p.child.once('exit', (code) => resolve({ code, ms: performance.now() - started }));
    p.child.kill(signal);
  });
}

/** Everything left under a directory, recursively (relative paths). */
export function leftUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String);
}
