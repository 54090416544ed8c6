// Fail-fast checks for the external tools some tests need: a clear message saying what is missing and how to get it.
import { execFileSync } from 'node:child_process';

const INSTALL =
  'Install it (Debian/Ubuntu: apt-get install -y ffmpeg; macOS: brew install ffmpeg) or put it on PATH; README, "Running the tests".';

/** Throws at once when `command -version` cannot run: these tests need the real tool, never a silent skip. */
export function requireTool(name: string, command: string = name, hint: string = INSTALL): string {
  try {
    execFileSync(command, ['-version'], { stdio: 'ignore', timeout: 15_000 });
    return command;
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'was not found' : 'did not run';
    throw new Error(`${name} ${why} (tried "${command}"). These tests render and probe real media. ${hint}`);
  }
}

/** ffmpeg (FFMPEG_PATH wins, as in the emulator) and ffprobe, for the real-media tests. */
export function requireMediaTools(): void {
  requireTool('ffmpeg', process.env.FFMPEG_PATH || 'ffmpeg');
  requireTool('ffprobe');
}
