// Spawns one ffmpeg (or ffprobe) process without blocking the event loop, keeping only the tail of stderr for errors.
import { spawn } from 'node:child_process';

export interface RunOptions {
  /** Aborting kills the process (renderer close). */
  signal?: AbortSignal;
  /** How many trailing stderr lines an error message quotes. */
  tailLines?: number;
  /** Collect stdout (for -version, -filters and ffprobe); otherwise it is discarded. */
  captureStdout?: boolean;
  /** Kill the process (its whole group) after this many ms and reject with a timeout message. */
  timeoutMs?: number;
  /** The process's environment; default: this process's. */
  env?: Record<string, string | undefined>;
}

/**
 * glibc's allocator settings for a render: fixed thresholds instead of its dynamic ones. With the dynamic ones, whether
 * the heap is trimmed and grown again on every frame depends on the order ffmpeg's threads happen to free their first
 * large buffers, so the same command ran in 0.7 s or in 2.2 s (15 s of 720p with audio: 93,000 minor page faults
 * instead of 6,000, at the same peak RSS). Fixed at 32 MiB, every run takes the fast path (bench/RESULTS.md, Renders).
 * Other C libraries ignore these variables.
 */
export const FFMPEG_MALLOC_TUNING = {
  MALLOC_MMAP_THRESHOLD_: String(32 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(32 * 1024 * 1024),
} as const;

export interface RunResult {
  stdout: string;
  stderrTail: string[];
  elapsedMs: number;
}

/** Upper bound on kept stderr, so a chatty failing process cannot grow memory. */
const STDERR_KEEP_BYTES = 16 * 1024;

export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderrTail: string[],
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

export function runProcess(binary: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const tailLines = options.tailLines ?? 8;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new FfmpegError(`${label(binary)} not started: renderer closed`, null, []));
      return;
    }
    // Its own process group, so a kill reaches anything ffmpeg started too and nothing outlives a timeout or shutdown.
    const child = spawn(binary, args, {
      stdio: ['ignore', options.captureStdout ? 'pipe' : 'ignore', 'pipe'],
      windowsHide: true,
      detached: process.platform !== 'win32',
      ...(options.env ? { env: options.env } : {}),
    });
    let timedOut = false;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            killGroup();
          }, options.timeoutMs);
    let stderr = '';
    const stdoutChunks: Buffer[] = [];
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.length > STDERR_KEEP_BYTES) stderr = stderr.slice(-STDERR_KEEP_BYTES);
    });
    child.stdout?.on('data', (chunk: Buffer) => stdoutChunks.push(chunk));
    const onAbort = killGroup;
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const tail = (): string[] =>
      stderr
        .split(/\r?\n/)
        .map((l) => l.trimEnd())
        .filter((l) => l.length > 0)
        .slice(-tailLines);
    child.on('error', (err) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(new FfmpegError(`${label(binary)} could not start: ${err.message}`, null, tail()));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const lines = tail();
      if (code === 0) {
        resolve({
          stdout: Buffer.concat(stdoutChunks).toString('utf8'),
          stderrTail: lines,
          elapsedMs: performance.now() - started,
        });
        return;
      }
      const why = options.signal?.aborted
        ? 'was stopped: renderer closed'
        : timedOut
          ? `timed out after ${options.timeoutMs} ms and was killed (raise renderTimeout / --render-timeout if renders are legitimately slow)`
          : signal
            ? `was killed by ${signal}`
            : `exited with code ${code}`;
      const detail = lines.length > 0 ? `:\n${lines.join('\n')}` : ' (no stderr output)';
      reject(new FfmpegError(`${label(binary)} ${why}${detail}`, code, lines));
    });
  });
}

function label(binary: string): string {
  const base = binary.split(/[\\/]/).pop() ?? binary;
  return base.replace(/\.exe$/i, '');
}
