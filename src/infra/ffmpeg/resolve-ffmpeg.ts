// Finds the ffmpeg binary: FFMPEG_PATH (passed in explicitly), then PATH, then the optional ffmpeg-static package, then
// the static build that ships inside the @ffmpeg-installer/ffmpeg dependency, so `npm install` alone renders for real.
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { runProcess } from './run-ffmpeg.js';

export type FfmpegSource = 'FFMPEG_PATH' | 'PATH' | 'ffmpeg-static' | '@ffmpeg-installer/ffmpeg';

export type FfmpegResolution =
  | { found: true; source: FfmpegSource; path: string; version: string }
  | { found: false; reason: string };

export interface ResolveOptions {
  /** The CLI fills this from FFMPEG_PATH. A string is used or fails alone (no silent second choice); false disables ffmpeg. */
  explicitPath?: string | false;
  /** PATH to search, as the shell would; the caller reads the environment (src/cli/environment.ts). None: no search. */
  pathEnv?: string;
  /** Aborting kills a `-version` probe still running (shutdown during start-up). */
  signal?: AbortSignal;
  /** The environment the probe runs with, as renders do (default: this process's). */
  env?: Record<string, string | undefined>;
  /** Loads ffmpeg-static; injectable so tests can pretend it is installed. */
  importStatic?: () => Promise<unknown>;
  /** Loads @ffmpeg-installer/ffmpeg; injectable so tests can pretend it is missing. */
  importInstaller?: () => Promise<unknown>;
}

/** A variable specifier keeps TypeScript from requiring the optional package's types at build time. */
const STATIC_PACKAGE = 'ffmpeg-static';

async function defaultImportStatic(): Promise<unknown> {
  return import(STATIC_PACKAGE);
}

/** The installer package throws (a string) on a platform it has no binary for; the caller turns that into a note. */
async function defaultImportInstaller(): Promise<unknown> {
  return import('@ffmpeg-installer/ffmpeg');
}

export async function resolveFfmpeg(options: ResolveOptions = {}): Promise<FfmpegResolution> {
  const { explicitPath } = options;
  if (explicitPath === false) return { found: false, reason: 'ffmpeg is disabled by configuration' };
  if (typeof explicitPath === 'string' && explicitPath.trim() !== '') {
    // A bare name ("ffmpeg5") is looked up on PATH, as a shell would; anything with a slash is a file path.
    const path = /[\\/]/.test(explicitPath)
      ? explicitPath
      : ((await findOnPath(options.pathEnv ?? '', [explicitPath])) ?? explicitPath);
    const probe = await probeBinary(path, options);
    return probe.ok
      ? { found: true, source: 'FFMPEG_PATH', path, version: probe.version }
      : { found: false, reason: `FFMPEG_PATH=${explicitPath} is not usable: ${probe.why}` };
  }

  const notes: string[] = [];
  const onPath = await findOnPath(options.pathEnv ?? '');
  if (onPath) {
    const probe = await probeBinary(onPath, options);
    if (probe.ok) return { found: true, source: 'PATH', path: onPath, version: probe.version };
    notes.push(`${onPath} is not usable: ${probe.why}`);
  } else {
    notes.push('no ffmpeg on PATH');
  }

  const packages: Array<[FfmpegSource, () => Promise<unknown>]> = [
    ['ffmpeg-static', options.importStatic ?? defaultImportStatic],
    ['@ffmpeg-installer/ffmpeg', options.importInstaller ?? defaultImportInstaller],
  ];
  for (const [source, load] of packages) {
    const shipped = await packagedBinaryPath(source, load);
    if (!shipped.path) {
      notes.push(shipped.why);
      continue;
    }
    const probe = await probeBinary(shipped.path, options);
    if (probe.ok) return { found: true, source, path: shipped.path, version: probe.version };
    notes.push(`${source} binary ${shipped.path} is not usable: ${probe.why}`);
  }
  return { found: false, reason: `FFMPEG_PATH not set; ${notes.join('; ')}` };
}

/** ffmpeg-static exports the path as its default; @ffmpeg-installer/ffmpeg exports `{ path }`. The file may be missing. */
async function packagedBinaryPath(name: string, load: () => Promise<unknown>): Promise<{ path?: string; why: string }> {
  let mod: unknown;
  try {
    mod = await load();
  } catch (err) {
    const missing = /Cannot find (package|module)/.test(String((err as Error)?.message ?? err));
    return {
      why: missing ? `${name} not installed` : `${name} has no binary here: ${String((err as Error)?.message ?? err)}`,
    };
  }
  const exported = (mod as { default?: unknown })?.default ?? mod;
  const path = typeof exported === 'string' ? exported : (exported as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string' || path === '') return { why: `${name} has no binary for this platform` };
  return (await isExecutable(path)) ? { path, why: '' } : { why: `${name} binary ${path} is missing` };
}

async function findOnPath(pathEnv: string, bases: string[] = ['ffmpeg']): Promise<string | undefined> {
  const names = process.platform === 'win32' ? bases.flatMap((b) => [`${b}.exe`, b]) : bases;
  for (const dir of pathEnv.split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (await isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Runs `-version` once: proves the binary starts and gives the version line for the start-up log. */
async function probeBinary(
  path: string,
  { signal, env }: Pick<ResolveOptions, 'signal' | 'env'>,
): Promise<{ ok: true; version: string } | { ok: false; why: string }> {
  if (!(await isExecutable(path))) return { ok: false, why: 'no executable file at that path' };
  try {
    const { stdout } = await runProcess(path, ['-hide_banner', '-version'], {
      captureStdout: true,
      tailLines: 3,
      signal,
      env,
    });
    const version = /version\s+(\S+)/.exec(stdout)?.[1] ?? 'unknown';
    return { ok: true, version };
  } catch (err) {
    return { ok: false, why: (err as Error).message };
  }
}
