// Which filters and encoders the chosen ffmpeg build has, so a thin build degrades instead of failing every render.
import { runProcess } from './run-ffmpeg.js';

export interface FfmpegCapabilities {
  /** Text overlays need libfreetype; without it outputs carry no text. */
  drawtext: boolean;
  /** Model B cross-fade (ffmpeg 4.3+); without it the same fade is drawn with fade (alpha) and overlay. */
  xfade: boolean;
  libx264: boolean;
  aac: boolean;
  libwebp: boolean;
  libmp3lame: boolean;
}

export const FULL_CAPABILITIES: FfmpegCapabilities = {
  drawtext: true,
  xfade: true,
  libx264: true,
  aac: true,
  libwebp: true,
  libmp3lame: true,
};

/** `signal` ends both listings' process groups (shutdown during start-up); `env` is what renders run with. */
export async function probeCapabilities(
  binary: string,
  signal?: AbortSignal,
  env?: Record<string, string | undefined>,
): Promise<FfmpegCapabilities> {
  const [filters, encoders] = await Promise.all([
    runProcess(binary, ['-hide_banner', '-filters'], { captureStdout: true, signal, env }),
    runProcess(binary, ['-hide_banner', '-encoders'], { captureStdout: true, signal, env }),
  ]);
  // Listing lines look like " T.C drawtext  V->V  Draw text..." and " V....D libx264  libx264 H.264 ...".
  const has = (listing: string, name: string): boolean => new RegExp(`^\\s*\\S+\\s+${name}\\s`, 'm').test(listing);
  return {
    drawtext: has(filters.stdout, 'drawtext'),
    xfade: has(filters.stdout, 'xfade'),
    libx264: has(encoders.stdout, 'libx264'),
    aac: has(encoders.stdout, 'aac'),
    libwebp: has(encoders.stdout, 'libwebp'),
    libmp3lame: has(encoders.stdout, 'libmp3lame'),
  };
}

/** What this build does differently from a full one, for the start-up line; text and libx264 are reported apart. */
export function degradations(caps: FfmpegCapabilities): string[] {
  const notes: string[] = [];
  if (!caps.xfade) notes.push('no xfade filter (older than ffmpeg 4.3): Model B cross-fades use fade and overlay');
  if (!caps.aac) notes.push('no aac encoder: audio tracks and M4A music are refused');
  if (!caps.libwebp) notes.push('no libwebp encoder: WebP stills are refused');
  if (!caps.libmp3lame) notes.push('no libmp3lame encoder: MP3 music is refused');
  return notes;
}
