// Another commit checked out beside this one, for a benchmark that measures both in one run; removed afterwards.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../scripts/transpile-dist.js';

/**
 * Runs `measure` with a detached worktree of `ref` (sharing this checkout's node_modules) and a list to push cleanups
 * on; the cleanups run in reverse order, then the worktree goes, whatever `measure` did.
 */
export async function withRefWorktree(
  ref: string,
  measure: (worktree: string, cleanups: (() => unknown)[]) => Promise<void>,
): Promise<void> {
  const cleanups: (() => unknown)[] = [];
  const worktree = mkdtempSync(join(tmpdir(), 'bench-ref-'));
  try {
    execFileSync('git', ['-C', REPO_ROOT, 'worktree', 'add', '--detach', worktree, ref], { stdio: 'ignore' });
    cleanups.push(() => execFileSync('git', ['-C', REPO_ROOT, 'worktree', 'remove', '--force', worktree]));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(worktree, 'node_modules'));
    await measure(worktree, cleanups);
  } finally {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // Best effort: a server that already stopped, a worktree already gone.
      }
    }
    rmSync(worktree, { recursive: true, force: true });
  }
}
