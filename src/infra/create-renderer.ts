// Picks the renderer at start-up: ffmpeg when a usable binary is found, otherwise fixture files; logs one line.
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { degradations, probeCapabilities } from './ffmpeg/ffmpeg-capabilities.js';
import { createFfmpegRenderer } from './ffmpeg/ffmpeg-renderer.js';
import { findFont } from './ffmpeg/find-font.js';
import { resolveFfmpeg } from './ffmpeg/resolve-ffmpeg.js';
import { createFixtureRenderer } from './fixture-renderer.js';
import { DEFAULT_MAX_STORE_BYTES, type Renderer } from './renderer.js';

export interface CreateRendererOptions {
  /** From FFMPEG_PATH (the CLI reads the environment); false disables ffmpeg, undefined searches. */
  ffmpegPath?: string | false;
  /** PATH to search for ffmpeg (read from the environment by the caller). */
  searchPath?: string;
  /**
   * The environment ffmpeg runs with (read at each render), a render's under the allocator settings of
   * FFMPEG_MALLOC_TUNING where it sets none of its own; default: this process's, without them.
   */
  childEnvironment?: Record<string, string | undefined>;
  /** Parallel ffmpeg processes; default: the number of cores. */
  maxParallel?: number;
  /** Longest one ffmpeg process may run before its process group is killed. */
  renderTimeoutMs?: number;
  /** Parent of the renderer's own fresh directory (default: the OS temp dir); close() removes that directory. */
  workDir?: string;
  maxStoreBytes?: number;
  /** The emulator clock, for URL expiry in the file store. */
  now: () => number;
  log?: (line: string) => void;
  /** A TrueType font to prefer over the shipped one. */
  fontPath?: string;
  /** Where fallback.mp4 and friends live (fixture mode); default: found from this module. */
  fixturesDir?: string;
  /** Shutdown during start-up: kills the probes' process groups, removes the work directory and rejects. */
  signal?: AbortSignal;
}

export class RendererStartAborted extends Error {}

export async function createRenderer(options: CreateRendererOptions): Promise<Renderer> {
  const workDir = await mkdtemp(join(options.workDir ?? tmpdir(), 'media-renders-'));
  try {
    const renderer = await pickRenderer(options, workDir);
    if (options.signal?.aborted) {
      await renderer.close();
      throw new RendererStartAborted('the emulator closed while the renderer started');
    }
    return renderer;
  } catch (error) {
    await rm(workDir, { recursive: true, force: true });
    if (options.signal?.aborted && !(error instanceof RendererStartAborted))
      throw new RendererStartAborted('the emulator closed while the renderer started');
    throw error;
  }
}

async function pickRenderer(options: CreateRendererOptions, workDir: string): Promise<Renderer> {
  const log = options.log ?? (() => undefined);
  const maxParallel = Math.max(1, Math.floor(options.maxParallel ?? availableParallelism()));
  const maxStoreBytes = options.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES;
  const { signal } = options;
  const common = { workDir, maxParallel, maxStoreBytes, now: options.now, log };

  const env = options.childEnvironment;
  const resolution = await resolveFfmpeg({
    explicitPath: options.ffmpegPath,
    pathEnv: options.searchPath,
    signal,
    env,
  });
  if (signal?.aborted) throw new RendererStartAborted('the emulator closed while ffmpeg was looked for');
  let warning: string;
  if (resolution.found) {
    const caps = await probeCapabilities(resolution.path, signal, env).catch((err: Error) => err);
    if (signal?.aborted) throw new RendererStartAborted('the emulator closed while ffmpeg was probed');
    if (caps instanceof Error) {
      warning = `${resolution.path} could not list its filters and encoders: ${caps.message}`;
    } else if (!caps.libx264) {
      warning = `${resolution.path} (from ${resolution.source}) has no libx264 encoder, so it cannot write browser-playable MP4`;
    } else {
      const font = caps.drawtext ? await findFont(options.fontPath) : undefined;
      const text = !caps.drawtext
        ? 'this build has no drawtext filter: outputs carry no text'
        : font
          ? `font ${font.path}`
          : 'no font found: outputs carry no text';
      log(
        `renderer: ffmpeg ${resolution.version} at ${resolution.path} (from ${resolution.source}), ` +
          `up to ${maxParallel} parallel renders, ${[text, ...degradations(caps)].join(', ')}`,
      );
      return createFfmpegRenderer({
        ...common,
        binary: resolution.path,
        source: resolution.source,
        version: resolution.version,
        caps,
        font,
        renderTimeoutMs: options.renderTimeoutMs,
        childEnvironment: options.childEnvironment,
      });
    }
  } else {
    warning = resolution.reason;
  }
  // Disabled on purpose (ffmpegPath: false) is a choice, not a problem to fix: no advice to install anything.
  log(
    options.ffmpegPath === false
      ? 'renderer: ffmpeg is disabled by configuration (ffmpegPath: false); outputs are copies of fixture files.'
      : `renderer: WARNING no usable ffmpeg (${warning}); outputs are copies of fixture files. Install ffmpeg or set FFMPEG_PATH for real renders.`,
  );
  return createFixtureRenderer({ ...common, warning, fixturesDir: options.fixturesDir });
}
