// Benchmark: the browser renderer in headless Chromium (what WebCodecs encodes there, a 4 s 480p MP4's encode time against
// the ffmpeg renderer in the same run) and its JavaScript's size; writes "## Browser renders (issue 38)" in RESULTS.md.
//
// Run from the repository root: npx tsx bench/browser-render.ts
//   BENCH_CHROMIUM=default,/path/b  measure these browsers; `default` (and no variable) is the one the test suite launches
//   BENCH_ROUNDS=n                  timed renders per row (default 9, after one warm-up)
//   --quick                         one round, RESULTS.md left as it is (CI runs it so it keeps working)
import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { createRenderer } from '../src/infra/create-renderer.js';
import type { RenderJob } from '../src/infra/renderer.js';
import type { WireJob } from '../test/browser/render-page-types.js';
import { openRenderPage } from '../test/browser/render-harness-kit.js';
import { chromiumExecutable } from '../test/helpers/chromium.js';
import { jobFor } from '../test/media/media-test-kit.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 1 : Number(process.env.BENCH_ROUNDS ?? 9);
const ROOT = new URL('..', import.meta.url).pathname;
const ENTRY = join(ROOT, 'src/infra/browser-renderer/browser-renderer.ts');
const uptime = (): string => execFileSync('uptime', { encoding: 'utf8' }).trim();
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (xs: number[]): string =>
  `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

const uptimeAtStart = uptime();
const cases: Array<{ name: string; params: Record<string, string> }> = [
  { name: '4 s 480p 16:9, no audio (Model A default)', params: {} },
  { name: '4 s 480p 16:9, audio on', params: { audio: 'on' } },
  { name: '15 s 720p 16:9, audio on', params: { duration: '15', quality: '720p', audio: 'on' } },
];
const jobs = await Promise.all(
  cases.map((c) => jobFor('motion-lite-v1', c.params, { prompt: 'A red fox in the snow' })),
);

/** The same jobs through the ffmpeg renderer, a fresh identity per round so none is a cache hit. */
async function ffmpegTimes(job: RenderJob): Promise<number[]> {
  const renderer = await createRenderer({ now: Date.now, searchPath: process.env.PATH });
  try {
    if (renderer.info.mode !== 'ffmpeg') throw new Error(`no ffmpeg: ${renderer.info.warning}`);
    const times: number[] = [];
    for (let i = 0; i <= ROUNDS; i += 1) {
      const started = performance.now();
      await renderer.render({ ...job, identityLabel: `gen_bench_${i}` });
      if (i > 0) times.push(performance.now() - started);
    }
    return times;
  } finally {
    await renderer.close();
  }
}

interface BrowserRun {
  label: string;
  probe: Record<string, boolean | string>;
  info: Record<string, unknown>;
  times: number[][];
}

async function browserRun(path: string | undefined): Promise<BrowserRun> {
  if (path) process.env.CHROMIUM_PATH = path;
  else delete process.env.CHROMIUM_PATH;
  const { origin } = await chromiumExecutable();
  const page = await openRenderPage();
  try {
    const info = await page.call('start', {});
    const probe = await page.call('probe');
    const times: number[][] = [];
    // time() clears the store before each render, so every one encodes; its first render is the warm-up.
    for (const job of jobs) times.push((await page.call('time', job as WireJob, ROUNDS + 1)).slice(1));
    return { label: `${probe.browser} (${path ?? origin})`, probe, info, times };
  } finally {
    await page.close();
  }
}

/** Minified and gzipped (level 9) as a browser bundle: the whole module, its own code alone, and a lazy split. */
async function sizes(): Promise<Record<string, number>> {
  const minified = async (
    options: Parameters<typeof build>[0],
  ): Promise<Array<{ path: string; bytes: Uint8Array }>> => {
    const result = await build({
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
      ...options,
    });
    return (result.outputFiles ?? []).map((f) => ({ path: f.path, bytes: f.contents }));
  };
  const gz = (bytes: Uint8Array): number => gzipSync(bytes, { level: 9 }).length;
  const [whole] = await minified({ entryPoints: [ENTRY], outfile: 'renderer.js' });
  const [own] = await minified({ entryPoints: [ENTRY], outfile: 'own.js', external: ['mediabunny'] });
  const split = await minified({
    stdin: {
      contents: `export const loadRenderer = () => import(${JSON.stringify(ENTRY)});`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    splitting: true,
    outdir: join(tmpdir(), 'bench-browser-split'),
  });
  const entry = split.find((f) => f.path.endsWith('stdin.js'))!;
  return {
    wholeMin: whole!.bytes.length,
    wholeGz: gz(whole!.bytes),
    ownMin: own!.bytes.length,
    ownGz: gz(own!.bytes),
    entryGz: gz(entry.bytes),
    lazyGz: split.filter((f) => f !== entry).reduce((sum, f) => sum + gz(f.bytes), 0),
  };
}

const browsers = (process.env.BENCH_CHROMIUM ?? '').split(',').filter(Boolean);
const runs: BrowserRun[] = [];
for (const path of browsers.length > 0 ? browsers : ['default'])
  runs.push(await browserRun(path === 'default' ? undefined : path));
const baseline: number[][] = [];
for (const job of jobs) baseline.push(await ffmpegTimes(job));
const size = await sizes();
const uptimeAtEnd = uptime();

const probeKeys = Object.keys(runs[0]!.probe).filter((k) => k !== 'browser');
const yes = (v: unknown): string => (v === true ? 'yes' : v === false ? 'no' : String(v));
const section = [
  '## Browser renders (issue 38)',
  '',
  `Command: \`${process.env.BENCH_ROUNDS ? `BENCH_ROUNDS=${ROUNDS} ` : ''}${browsers.length > 0 ? `BENCH_CHROMIUM=${browsers.join(',')} ` : ''}npx tsx bench/browser-render.ts\` (from the repository root).`,
  `Date: ${new Date().toISOString()}`,
  `Machine: ${cpus()[0]?.model.trim()}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}.`,
  `\`uptime\` at the start: \`${uptimeAtStart}\``,
  `\`uptime\` at the end: \`${uptimeAtEnd}\``,
  '',
  'The machine is shared with other work: compare the columns of one run, not one run with another; the `uptime` lines',
  'say how busy it was.',
  '',
  '### What WebCodecs encodes here',
  '',
  '`VideoEncoder.isConfigSupported` at 854x480, 1 Mb/s, 24 fps; `AudioEncoder.isConfigSupported` at 48 kHz mono, 96 kb/s;',
  '`OffscreenCanvas.convertToBlob` answering the type asked for. The renderer asks the same WebCodecs checks for the',
  "configurations it encodes with (codec-config.ts: the level the size needs), for each render's own size.",
  '',
  `| Encoder | ${runs.map((r) => r.label).join(' | ')} |`,
  `|---|${runs.map(() => '---').join('|')}|`,
  ...probeKeys.map((key) => `| ${key} | ${runs.map((r) => yes(r.probe[key])).join(' | ')} |`),
  `| **renderer's choice** | ${runs.map((r) => `${r.info.videoCodec} + ${r.info.audioCodec}, WebP ${yes(r.info.webp)}`).join(' | ')} |`,
  '',
  '### Encode time',
  '',
  `\`render()\` in the page from call to resolved (paint every frame on an OffscreenCanvas, WebCodecs encode, Mediabunny`,
  `mux, store), the store emptied before each so every one encodes; ${ROUNDS} rounds after one warm-up: median (min–max).`,
  'The ffmpeg renderer (libx264 ultrafast, AAC) renders the same jobs in the same run, from Node, as the baseline.',
  '',
  `| Output | ${runs.map((r) => r.label).join(' | ')} | ffmpeg renderer (Node) | Target |`,
  `|---|${runs.map(() => '---').join('|')}|---|---|`,
  ...cases.map(
    (c, i) =>
      `| ${c.name} | ${runs.map((r) => ms(r.times[i]!)).join(' | ')} | ${ms(baseline[i]!)} | ${i < 2 ? '≤ 2 s' : '–'} |`,
  ),
  '',
  '### JavaScript size',
  '',
  'esbuild, `--bundle --minify --format=esm --platform=browser`, gzip level 9.',
  '',
  '| Bundle | Minified | Minified + gzipped |',
  '|---|---|---|',
  `| \`browser-renderer.ts\` with Mediabunny (what it tree-shakes to) | ${kb(size.wholeMin!)} | ${kb(size.wholeGz!)} |`,
  `| the renderer's own code (Mediabunny external) | ${kb(size.ownMin!)} | ${kb(size.ownGz!)} |`,
  `| loaded lazily: an entry with \`() => import('…/browser-renderer.js')\` | – | ${kb(size.entryGz!)} entry + ${kb(size.lazyGz!)} chunk |`,
  '',
].join('\n');

if (!quick) {
  const resultsPath = join(ROOT, 'bench/RESULTS.md');
  const existing = await readFile(resultsPath, 'utf8');
  const pattern = /^## Browser renders \(issue 38\)\n[\s\S]*?(?=^## |(?![\s\S]))/m;
  const updated = pattern.test(existing)
    ? existing.replace(pattern, `${section}\n`)
    : `${existing.trimEnd()}\n\n${section}`;
  await writeFile(resultsPath, `${updated.trimEnd()}\n`);
}
await rm(join(tmpdir(), 'bench-browser-split'), { recursive: true, force: true });
console.log(section);
