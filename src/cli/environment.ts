// The one reader of process.env: what the CLI and the in-process entry points take from the environment.
import type { CompositionExtras } from '../emulator.js';

export interface Environment {
  /** An ffmpeg binary (path or bare name), used when the options name none. */
  ffmpegPath?: string;
  /** Where to look for ffmpeg, as the shell would. */
  searchPath?: string;
  /** The whole environment, which ffmpeg runs with (a system build may need its LD_LIBRARY_PATH). */
  variables: Record<string, string | undefined>;
}

export function readEnvironment(env: Record<string, string | undefined> = process.env): Environment {
  return { ffmpegPath: env.FFMPEG_PATH || undefined, searchPath: env.PATH, variables: env };
}

/** What createEmulator takes from the environment besides options. */
export const compositionExtras = (environment: Environment): CompositionExtras => ({
  searchPath: environment.searchPath,
  childEnvironment: environment.variables,
});
