// Writes the "## API throughput and start-up" section of bench/RESULTS.md, leaving every other section (## Renders) as it is.
import { readFileSync, writeFileSync } from 'node:fs';

export interface Section {
  command: string;
  machine: string;
  table: string;
  seconds: number;
  rounds: number;
  stored: number;
}

const HEADING = '## API throughput and start-up';

export function writeSection(path: string, s: Section) {
  const section = [
    HEADING,
    '',
    `Command: \`${s.command}\` (from the repository root).`,
    `Date: ${new Date().toISOString()}`,
    `Machine: ${s.machine}.`,
    '',
    `Each server runs alone in its own process; autocannon (10 connections, loopback) runs in the bench process on the same 2 cores.`,
    `Throughput: ${s.rounds} alternating rounds of ${s.seconds} s per server and route after a 1 s warm-up each; medians of req/s.`,
    'Emulator: src/ transpiled to JavaScript (as `dist/` ships), default options plus the timing named; every standard middleware',
    '(CORS, journal, fault rules) in place. Bare Express 5: `express.json()` and a handler answering the same route with a fixed JSON',
    "body, that body being the emulator's own answer for the route (same bytes on the wire).",
    `Reads and estimates hit an emulator holding ${s.stored.toLocaleString('en-US')} completed generations (one shared render, output URLs signed on`,
    'every read); submissions hit one with `timing: manual`, a fresh Idempotency-Key per request.',
    'Start-up: `startEmulator()` from call to resolved (socket listening; the ffmpeg probes may still run, renders wait for them), median',
    'of 10 in one process after the module is loaded; CLI: `node dist/cli/main.js --port N` from spawn to the first 200 of GET /_emulator/health,',
    'against the bare app to its first 200.',
    '',
    s.table,
    '',
    'What the CPU profiles showed, what was changed for each target, and what was missed before: docs/proof.md, "Benchmarks".',
    '',
  ].join('\n');
  const existing = readFileSync(path, 'utf8');
  const pattern = new RegExp(`^${HEADING}\\n[\\s\\S]*?(?=^## |(?![\\s\\S]))`, 'm');
  const updated = pattern.test(existing)
    ? existing.replace(pattern, `${section}\n`)
    : existing.replace(/^# Benchmark results\n\n?/m, `# Benchmark results\n\n${section}\n`);
  writeFileSync(path, `${updated.trimEnd()}\n`);
}
