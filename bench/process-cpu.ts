// A process's own CPU time from /proc: steadier than req/s on a machine shared with others (the benches' cost figure).
import { readFileSync } from 'node:fs';

/** User + system CPU time of `pid` so far, in ms (Linux: /proc/<pid>/stat counts clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
