// Benchmark: renderer vs the bare ffmpeg command for the same file, plus cache hits; writes "## Renders" in RESULTS.md.
//
// Run from the repository root: npx tsx bench/render.ts   (BENCH_ROUNDS=n changes the rounds per row)
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { catalogueFileSchema } from '../src/domain/catalogue-schema.js';
import { mediaSpecFor } from '../src/domain/media-spec.js';
import { createRenderer } from '../src/infra/create-renderer.js';
import { probeCapabilities } from '../src/infra/ffmpeg/ffmpeg-capabilities.js';
import { findFont } from '../src/infra/ffmpeg/find-font.js';
import { findUp, HERE } from '../src/infra/ffmpeg/find-up.js';
import { buildRenderPlan } from '../src/infra/ffmpeg/render-plan.js';
import { FFMPEG_MALLOC_TUNING, runProcess } from '../src/infra/ffmpeg/run-ffmpeg.js';
import type { RenderJob } from '../src/infra/renderer.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const CACHE_ROUNDS = 200;
const COMMAND = `${process.env.BENCH_ROUNDS ? `BENCH_ROUNDS=${ROUNDS} ` : ''}npx tsx bench/render.ts`;

const root = dirname(dirname((await findUp('bench/render.ts', HERE)) ?? join(process.cwd(), 'bench/render.ts')));
const catalogue = catalogueFileSchema.parse(JSON.parse(await readFile(join(root, 'fixtures/catalogue.json'), 'utf8')));

function jobFor(slug: string, params: Record<string, string>, identity: string): RenderJob {
  const model = catalogue.models.find((m) => m.slug === slug)!;
  const resolved = { ...Object.fromEntries(model.option_groups.map((g) => [g.name, g.default])), ...params };
  return {
    generationId: identity,
    identityLabel: identity,
    modelSlug: slug,
    kind: model.kind,
    prompt: 'A red fox trotting through fresh snow at dawn, cinematic',
    params: resolved,
    spec: mediaSpecFor(model, resolved),
    index: 0,
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * p) - 1]!;

const loadAtStart = loadavg()[0]!;
const scratch = await mkdtemp(join(tmpdir(), 'bench-render-'));
const renderer = await createRenderer({
  now: Date.now,
  workDir: scratch,
  searchPath: process.env.PATH,
  childEnvironment: process.env,
  log: (l) => console.log(l),
});
if (renderer.info.mode !== 'ffmpeg') throw new Error(`no ffmpeg: ${renderer.info.warning}`);
const binary = renderer.info.binary!;
const caps = await probeCapabilities(binary);
const font = await findFont();

/** The bare command: the plan the renderer would run, written out once, then spawned directly. */
async function bare(job: RenderJob): Promise<number> {
  const dir = await mkdtemp(join(scratch, 'bare-'));
  const plan = buildRenderPlan(job, { tmpDir: dir, outPath: join(dir, `out.${job.spec.format}`), font, caps });
  if (plan.type !== 'ffmpeg') throw new Error('not an ffmpeg plan');
  await Promise.all(plan.files.map((f) => writeFile(f.path, f.data)));
  const started = performance.now();
  await runProcess(binary, plan.args, { env: { ...process.env, ...FFMPEG_MALLOC_TUNING } });
  // The output stays until the end, like the renderer's stored files, so neither side pays for deletes mid-run.
  return performance.now() - started;
}

/** Through the renderer: hashing, temp files, queue, spawn, move into the store. A new identity defeats the cache. */
async function viaRenderer(job: RenderJob): Promise<number> {
  const started = performance.now();
  const file = await renderer.render(job);
  const elapsed = performance.now() - started;
  if (file.cacheHit) throw new Error('unexpected cache hit');
  return elapsed;
}

interface Row {
  name: string;
  bare: number[];
  renderer: number[];
}

const cases: Array<{ name: string; slug: string; params: Record<string, string> }> = [
  { name: 'Model A default (4 s, 480p 16:9, no audio)', slug: 'motion-lite-v1', params: {} },
  {
    name: 'Model A 15 s, 720p 16:9, audio on',
    slug: 'motion-lite-v1',
    params: { duration: '15', quality: '720p', audio: 'on' },
  },
];

const rows: Row[] = [];
for (const c of cases) {
  // One warm-up each (page cache, shared libraries), then alternate, swapping who goes first, so noise hits both alike.
  await bare(jobFor(c.slug, c.params, 'gen_warmup_bare'));
  await viaRenderer(jobFor(c.slug, c.params, 'gen_warmup_rend'));
  const bareTimes: number[] = [];
  const rendererTimes: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const identity = `gen_bench_${String(i).padStart(4, '0')}`;
    const job = jobFor(c.slug, c.params, identity);
    if (i % 2 === 0) {
      bareTimes.push(await bare(job));
      rendererTimes.push(await viaRenderer(job));
    } else {
      rendererTimes.push(await viaRenderer(job));
      bareTimes.push(await bare(job));
    }
  }
  rows.push({ name: c.name, bare: bareTimes, renderer: rendererTimes });
}

// Cache hits: the same job again (different generation id, same pixels).
const hitJob = jobFor('motion-lite-v1', {}, 'gen_cache');
await renderer.render(hitJob);
const hitTimes: number[] = [];
for (let i = 0; i < CACHE_ROUNDS; i += 1) {
  const started = performance.now();
  const file = await renderer.render({ ...hitJob, generationId: `gen_${i}` });
  hitTimes.push(performance.now() - started);
  if (!file.cacheHit) throw new Error('expected a cache hit');
}
await renderer.close();
await rm(scratch, { recursive: true, force: true });

const ms = (n: number): string => `${n.toFixed(1)} ms`;
const table = [
  '| Output | Bare ffmpeg median (min) | Renderer median (min) | Ratio of medians (of mins) | Target |',
  '|---|---|---|---|---|',
  ...rows.map((r) => {
    const [bm, rm_, bmin, rmin] = [median(r.bare), median(r.renderer), Math.min(...r.bare), Math.min(...r.renderer)];
    return `| ${r.name} | ${ms(bm)} (${ms(bmin)}) | ${ms(rm_)} (${ms(rmin)}) | ${(rm_ / bm).toFixed(2)}x (${(rmin / bmin).toFixed(2)}x) | ≤ 1.25x |`;
  }),
  `| Cache hit, identical job (median / p95 / max of ${CACHE_ROUNDS}) | – | ${ms(median(hitTimes))} / ${ms(percentile(hitTimes, 0.95))} / ${ms(Math.max(...hitTimes))} | – | ≤ 20 ms |`,
].join('\n');
console.log(`\n${table}\n`);

const section = [
  '## Renders',
  '',
  `Command: \`${COMMAND}\` (from the repository root; ${ROUNDS} alternating rounds per row after one warm-up, medians).`,
  `Date: ${new Date().toISOString()}`,
  `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
    `${platform()} ${release()}, Node ${process.version}, ffmpeg ${renderer.info.version} (${renderer.info.source}), ` +
    `1-minute load average ${loadAtStart.toFixed(1)} at the start.`,
  '',
  'Bare ffmpeg = the exact arguments and environment the renderer builds, spawned directly with inputs already on disk.',
  'Renderer = `render()` from call to resolved promise: cache key, temp files, queue, ffmpeg, move into the store.',
  'The machine is shared with other work, so single runs are noisy; the minimum shows the overhead with the least noise.',
  'Encoder: libx264 `-preset ultrafast -crf 23`, yuv420p, 24 fps, keyframe every 2 s, `+faststart`; AAC 96 kb/s.',
  '',
  table,
  '',
].join('\n');

const resultsPath = join(root, 'bench/RESULTS.md');
const existing = await readFile(resultsPath, 'utf8').catch(() => '# Benchmark results\n\n');
// Replace only our section: from "## Renders" to the next "## " heading (other sections belong to other benches).
const pattern = /^## Renders\n[\s\S]*?(?=^## |(?![\s\S]))/m;
const updated = pattern.test(existing)
  ? existing.replace(pattern, `${section}\n`)
  : `${existing.trimEnd()}\n\n${section}`;
await mkdir(dirname(resultsPath), { recursive: true });
await writeFile(resultsPath, `${updated.trimEnd()}\n`);
console.log(`wrote ${resultsPath}`);
