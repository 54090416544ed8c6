// The machine's processes as the tests need them (children of a pid; command lines mentioning a string), with no `ps`:
// on Linux from /proc, which every Linux has, even a slim container without procps; elsewhere from `ps`, which macOS
// and the BSDs always have. A machine with neither fails the test that asked, saying so.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

interface ProcessEntry {
  pid: number;
  ppid: number;
  /** The command line, its arguments joined by spaces (as `ps -o args` shows it); empty for a zombie. */
  args: string;
}

/** One process from /proc, or undefined when it ended while being read. */
function fromProc(pid: number): ProcessEntry | undefined {
  try {
    // The 4th field of stat, after the command name in parentheses (which may itself hold spaces and parentheses).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return { pid, ppid, args };
  } catch {
    return undefined;
  }
}

function fromPs(): ProcessEntry[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  } catch (error) {
    throw new Error(
      `this test lists processes: there is no /proc here, and ps failed (${(error as Error).message.split('\n')[0]}).`,
    );
  }
  return out.split('\n').flatMap((line) => {
    const found = /^\s*(\d+)\s+(\d+)\s?(.*)$/.exec(line);
    return found ? [{ pid: Number(found[1]), ppid: Number(found[2]), args: found[3]! }] : [];
  });
}

/** Every live process but this one. */
export function processTable(): ProcessEntry[] {
  const all = existsSync('/proc/self/stat')
    ? readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .flatMap((name) => fromProc(Number(name)) ?? [])
    : fromPs();
  return all.filter((p) => p.pid !== process.pid);
}

/** Pids of every process whose parent is `pid`. */
export function childPids(pid: number): number[] {
  return processTable()
    .filter((p) => p.ppid === pid)
    .map((p) => p.pid);
}

/** Pids of live processes whose command line mentions `needle` (used to find ffmpeg children after their parent died). */
export function processesMentioning(needle: string): number[] {
  return processTable()
    .filter((p) => p.args.includes(needle))
    .map((p) => p.pid);
}
