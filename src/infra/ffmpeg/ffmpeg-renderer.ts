// The real renderer: builds a plan per output, writes its inputs to temp files and runs ffmpeg inside the queue.
import { writeFile } from 'node:fs/promises';
import type { Renderer, RendererInfo, RenderJob } from '../renderer.js';
import { createCachingRenderer, type ProduceContext } from './caching-renderer.js';
import type { FfmpegCapabilities } from './ffmpeg-capabilities.js';
import type { FontChoice } from './find-font.js';
import { buildRenderPlan, missingEncoder } from './render-plan.js';
import { FFMPEG_MALLOC_TUNING, runProcess } from './run-ffmpeg.js';

/** Bump when the pictures or sounds change, so cached outputs of an older look are not served. */
export const FFMPEG_RENDERER_VERSION = 'ffmpeg-renderer/1';

export interface FfmpegRendererOptions {
  binary: string;
  source: NonNullable<RendererInfo['source']>;
  version: string;
  caps: FfmpegCapabilities;
  font: FontChoice | undefined;
  workDir: string;
  maxParallel: number;
  maxStoreBytes: number;
  now: () => number;
  renderTimeoutMs?: number;
  /** See CreateRendererOptions.childEnvironment. */
  childEnvironment?: Record<string, string | undefined>;
  log?: (line: string) => void;
}

export async function createFfmpegRenderer(options: FfmpegRendererOptions): Promise<Renderer> {
  const { binary, caps, font } = options;
  const produce = async (job: RenderJob, ctx: ProduceContext): Promise<void> => {
    const missing = missingEncoder(job, caps);
    if (missing) throw new Error(`the ffmpeg at ${binary} has no ${missing} encoder for ${job.spec.format} output`);
    const plan = buildRenderPlan(job, { tmpDir: ctx.tmpDir, outPath: ctx.outPath, font, caps });
    if (plan.type === 'bytes') {
      await writeFile(ctx.outPath, plan.data);
      return;
    }
    // Reference images and text go to files: ffmpeg reads them itself, and no user text enters the filter graph.
    await Promise.all(plan.files.map((f) => writeFile(f.path, f.data)));
    // Read at each render, so a change to the environment since start reaches the next ffmpeg, as it used to.
    const env = options.childEnvironment && { ...FFMPEG_MALLOC_TUNING, ...options.childEnvironment };
    await runProcess(binary, plan.args, { signal: ctx.signal, timeoutMs: options.renderTimeoutMs, env });
  };
  const info: RendererInfo = {
    mode: 'ffmpeg',
    source: options.source,
    binary,
    version: options.version,
    maxParallel: Math.max(1, Math.floor(options.maxParallel)),
  };
  return createCachingRenderer({
    info,
    version: [FFMPEG_RENDERER_VERSION, options.version, font?.path ?? 'no-font', JSON.stringify(caps)].join('|'),
    workDir: options.workDir,
    maxStoreBytes: options.maxStoreBytes,
    now: options.now,
    log: options.log,
    produce,
  });
}
