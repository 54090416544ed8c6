// A full disk under an emulator's state file, made two ways: a 2 MB tmpfs where the machine lets us mount one, and a
// file-size limit on the emulator's process (RLIMIT_FSIZE, through util-linux's prlimit), which needs no privilege.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type DiskKind = 'tmpfs' | 'file-size limit';

/**
 * Each method takes the folder of the state file and the pid of the process that writes it: a tmpfs fills the folder's
 * filesystem for everyone, a file-size limit stops that process from writing past a size, in any file.
 */
export interface FullDisk {
  readonly kind: DiskKind;
  /** What SQLite answers when it cannot write (better-sqlite3 and node:sqlite alike). */
  readonly refusal: RegExp;
  /** A new empty folder for one emulator's state file (on a tmpfs, the earlier cases' folders go: it holds 2 MB). */
  folder(): string;
  /** From now on every write fails, as on a full disk. */
  fill(dir: string, pid: number): void;
  /** As `fill`, but about `bytes` more can still be written. */
  fillBut(dir: string, pid: number, bytes: number): void;
  /** The space is back. */
  free(dir: string, pid: number): void;
  /** Every folder and process filled so far has its space back. */
  freeAll(): void;
  dispose(): void;
}

const TMPFS_SIZE = '2m';

/** Writes a file until the disk refuses another byte; removing it gives the space back. */
function fillFilesystem(dir: string): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  try {
    for (const size of [65_536, 4096, 512, 1])
      for (;;) {
        try {
          writeSync(fd, Buffer.alloc(size));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
  } finally {
    closeSync(fd);
  }
  return filler;
}

function tmpfsDisk(mountPoint: string): FullDisk {
  let cases = 0;
  const folders: string[] = [];
  const free = (dir: string) => rmSync(join(dir, 'filler'), { force: true });
  return {
    kind: 'tmpfs',
    refusal: /SQLITE_(FULL|IOERR)/,
    folder() {
      for (const done of folders.splice(0)) rmSync(done, { recursive: true, force: true });
      const dir = join(mountPoint, `case-${++cases}`);
      mkdirSync(dir);
      folders.push(dir);
      return dir;
    },
    fill: (dir) => void fillFilesystem(dir),
    fillBut(dir, _pid, bytes) {
      const room = fillFilesystem(dir);
      execFileSync('truncate', ['-s', `-${bytes}`, room]);
    },
    free,
    freeAll: () => folders.forEach(free),
    dispose() {
      execFileSync('umount', [mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    },
  };
}

/** The soft limit as prlimit prints it ('unlimited' or bytes), and sets it; the hard limit is left alone. */
const softLimit = (pid: number) =>
  execFileSync('prlimit', ['--pid', String(pid), '--fsize', '--raw', '--noheadings', '--output=SOFT'], {
    encoding: 'utf8',
  }).trim();
const setSoftLimit = (pid: number, soft: string) => execFileSync('prlimit', ['--pid', String(pid), `--fsize=${soft}:`]);

/**
 * A write at or past the limit fails with EFBIG (Node ignores SIGXFSZ, so the process lives on), which SQLite answers
 * SQLITE_IOERR_WRITE. The state file's folder is an ordinary one; its files only grow while a test runs (the log is
 * checkpointed every 10,000 pages), so a limit just past the largest leaves room for that much more.
 */
function fileSizeLimit(root: string): FullDisk {
  const original = new Map<number, string>();
  const limit = (pid: number, bytes: number) => {
    if (!original.has(pid)) original.set(pid, softLimit(pid));
    setSoftLimit(pid, String(bytes));
  };
  const largest = (dir: string) => Math.max(0, ...readdirSync(dir).map((f) => statSync(join(dir, f)).size));
  return {
    kind: 'file-size limit',
    refusal: /SQLITE_IOERR/,
    folder: () => mkdtempSync(join(root, 'case-')),
    // Not 0: prlimit reads 0 as 0, but a limit of 1 byte says "nothing more" just as well and is never "unlimited".
    fill: (_dir, pid) => limit(pid, 1),
    fillBut: (dir, pid, bytes) => limit(pid, largest(dir) + bytes),
    free(_dir, pid) {
      const soft = original.get(pid);
      if (soft === undefined) return;
      original.delete(pid);
      setSoftLimit(pid, soft);
    },
    freeAll() {
      for (const [pid, soft] of original)
        try {
          setSoftLimit(pid, soft);
        } catch {
          // That process has ended.
        }
      original.clear();
    },
    dispose() {
      this.freeAll();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function canMountTmpfs(mountPoint: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', mountPoint], { stdio: 'pipe' });
    return true;
  } catch {
    // Not root, or no CAP_SYS_ADMIN (a container without it, CI's unprivileged step, a developer's laptop).
    return false;
  }
}

function hasPrlimit(): boolean {
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** The kinds this machine can make: the file-size limit always (it fails fast without prlimit), a tmpfs when allowed. */
export function diskKinds(): DiskKind[] {
  const probe = mkdtempSync(join(tmpdir(), 'full-disk-probe-'));
  const tmpfs = canMountTmpfs(probe);
  if (tmpfs) execFileSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  return tmpfs ? ['file-size limit', 'tmpfs'] : ['file-size limit'];
}

export function openFullDisk(kind: DiskKind): FullDisk {
  if (kind === 'tmpfs') {
    const mountPoint = mkdtempSync(join(tmpdir(), 'full-disk-'));
    if (!canMountTmpfs(mountPoint)) throw new Error(`could not mount a ${TMPFS_SIZE} tmpfs at ${mountPoint}`);
    return tmpfsDisk(mountPoint);
  }
  if (!hasPrlimit())
    throw new Error(
      'These tests need prlimit (util-linux, in every Debian-based image including node:22-slim) to set a file-size limit on the emulator: install util-linux.',
    );
  return fileSizeLimit(mkdtempSync(join(tmpdir(), 'full-disk-')));
}
