// Finds ffmpeg and ffprobe for the tests: FFMPEG_PATH / FFPROBE_PATH, else the newer of the system's and the npm-shipped one.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

const require = createRequire(import.meta.url);

export interface MediaTool {
  path: string;
  /** Where it came from: the environment variable, PATH, or the npm package that ships it. */
  origin: string;
}

interface Candidate extends MediaTool {
  /** The build's year, from "Copyright (c) 2000-2018": comparable across release and git-snapshot version strings. */
  year: number;
}

/** The first line of `-version`, or undefined when the binary is missing or does not run. */
function versionLine(command: string): string | undefined {
  try {
    return execFileSync(command, ['-version'], {
      encoding: 'utf8',
      timeout: 15_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).split('\n')[0];
  } catch {
    return undefined;
  }
}

function candidate(path: string, origin: string): Candidate | undefined {
  const line = versionLine(path);
  if (!line) return undefined;
  return { path, origin, year: Number(/Copyright \(c\) \d{4}-(\d{4})/.exec(line)?.[1] ?? 0) };
}

/** The npm packages export `{ path }`; they throw on a platform they ship no binary for. */
function shipped(pkg: string): Candidate | undefined {
  try {
    return candidate((require(pkg) as { path: string }).path, pkg);
  } catch {
    return undefined;
  }
}

/** The absolute path a shell would run for `name`, so tests can link to it or hand it on. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {}
  }
  return undefined;
}

const chosen = new Map<string, MediaTool>();

/** An explicit variable must work (no silent second choice); otherwise the system's wins ties, the npm one fills gaps. */
function pick(name: 'ffmpeg' | 'ffprobe', envVar: string, pkg: string): MediaTool {
  const known = chosen.get(name);
  if (known) return known;
  const explicit = process.env[envVar];
  let tool: MediaTool | undefined;
  if (explicit) {
    tool = candidate(explicit, envVar);
    if (!tool)
      throw new Error(`${envVar}=${explicit} does not run ("${name} -version" failed). Unset it or fix the path.`);
  } else {
    const found = onPath(name);
    const system = found ? candidate(found, 'PATH') : undefined;
    const npm = shipped(pkg);
    tool = system && (!npm || system.year >= npm.year) ? system : npm;
  }
  if (!tool)
    throw new Error(
      `${name} was not found: not on PATH, and ${pkg} (a devDependency that ships it) is not installed. ` +
        'Run npm install; README, "Running the tests".',
    );
  chosen.set(name, tool);
  return tool;
}

export function ffmpegTool(): MediaTool {
  return pick('ffmpeg', 'FFMPEG_PATH', '@ffmpeg-installer/ffmpeg');
}

export function ffprobeTool(): MediaTool {
  return pick('ffprobe', 'FFPROBE_PATH', '@ffprobe-installer/ffprobe');
}

/** Fails at once, saying why, when a tool is missing: these tests need the real tools, never a silent skip. */
export function requireMediaTools(): { ffmpeg: string; ffprobe: string } {
  return { ffmpeg: ffmpegTool().path, ffprobe: ffprobeTool().path };
}
