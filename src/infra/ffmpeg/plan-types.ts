// What a render needs, before anything runs: temp input files plus ffmpeg arguments, or finished bytes (GLB).
import type { FontChoice } from './find-font.js';
import type { FfmpegCapabilities } from './ffmpeg-capabilities.js';

export interface PlanFile {
  path: string;
  data: string | Uint8Array;
}

export interface PlanEnv {
  /** A private directory for this render's inputs and output. */
  tmpDir: string;
  /** Where ffmpeg writes; the caller moves it into the store once ffmpeg exits 0. */
  outPath: string;
  font: FontChoice | undefined;
  caps: FfmpegCapabilities;
}

export type RenderPlan = { type: 'ffmpeg'; files: PlanFile[]; args: string[] } | { type: 'bytes'; data: Uint8Array };

/** Common leading arguments: no stdin (a child must never wait for a terminal), errors only on stderr. */
export const PRELUDE = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'] as const;

/** Common output arguments for MP4/M4A: moov before mdat, so browsers start playing before the download ends. */
export const FASTSTART = ['-movflags', '+faststart'] as const;
