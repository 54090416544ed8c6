// The fallback when no ffmpeg is found: every output is a copy of a small file shipped in fixtures/.
import { copyFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { MediaFormat } from './media-spec.js';
import { createCachingRenderer, type ProduceContext } from './ffmpeg/caching-renderer.js';
import { findUp } from './ffmpeg/find-up.js';
import { buildGlb } from './ffmpeg/glb-cube.js';
import type { Renderer, RendererInfo, RenderJob } from './renderer.js';

export const FIXTURE_RENDERER_VERSION = 'fixture-renderer/1';

/**
 * Fixture per output format. GLB needs no ffmpeg, so 3d outputs are still generated for real; WebP and MP3
 * have no fixture and fail with a message that says to install ffmpeg.
 */
export const FIXTURE_FILES: Partial<Record<MediaFormat, string>> = {
  mp4: 'fallback.mp4',
  png: 'fallback.png',
  m4a: 'fallback.m4a',
};

export interface FixtureRendererOptions {
  /** Why ffmpeg is not used; shown in the renderer info. */
  warning: string;
  /** Directory holding the fallback files; found by walking up from this module when absent. */
  fixturesDir?: string;
  workDir: string;
  maxParallel: number;
  maxStoreBytes: number;
  now: () => number;
  log?: (line: string) => void;
}

export async function locateFixturesDir(): Promise<string | undefined> {
  const mp4 = await findUp(join('fixtures', FIXTURE_FILES.mp4!));
  return mp4 ? dirname(mp4) : undefined;
}

export async function createFixtureRenderer(options: FixtureRendererOptions): Promise<Renderer> {
  const fixturesDir = options.fixturesDir ?? (await locateFixturesDir());
  const produce = async (job: RenderJob, ctx: ProduceContext): Promise<void> => {
    if (job.spec.format === 'glb') {
      await writeFile(ctx.outPath, buildGlb(job));
      return;
    }
    const name = FIXTURE_FILES[job.spec.format];
    if (!name || !fixturesDir) {
      throw new Error(
        `no ffmpeg and no fixture file for ${job.spec.format} output (${options.warning}); install ffmpeg or set FFMPEG_PATH`,
      );
    }
    // A copy, not a link: the store deletes its files on eviction and close, and must never touch fixtures/.
    await copyFile(join(fixturesDir, name), ctx.outPath);
  };
  const info: RendererInfo = {
    mode: 'fixture',
    warning: options.warning,
    maxParallel: Math.max(1, Math.floor(options.maxParallel)),
  };
  return createCachingRenderer({
    info,
    version: `${FIXTURE_RENDERER_VERSION}|${fixturesDir ?? 'no-fixtures'}`,
    workDir: options.workDir,
    maxStoreBytes: options.maxStoreBytes,
    now: options.now,
    log: options.log,
    produce,
  });
}
