// drawtext filters for the request summary; the text travels in temp files so no prompt needs filter escaping.
import { join } from 'node:path';
import type { RenderJob } from '../renderer.js';
import type { FontChoice } from './find-font.js';
import { filterOptions } from './filtergraph.js';
import type { PlanFile } from './plan-types.js';
import { layoutText } from './text-layout.js';

export interface TextOverlayOptions {
  job: RenderJob;
  width: number;
  height: number;
  /** No font (or a build without drawtext) means no text: the render still succeeds. */
  font: FontChoice | undefined;
  tmpDir: string;
  /** Timeline expression; frames outside it stay clean (reference first and last frames). */
  enable?: string;
  /** Video: y position (expression) of a running clock at the right edge; absent for stills. */
  clockY?: string;
  /** Pixels kept free at the bottom (progress bar). */
  bottomReserve: number;
}

export interface TextOverlay {
  files: PlanFile[];
  /** Prompt and info drawtext filters, already escaped; empty when there is no font. */
  filters: string[];
  /** The running clock, when clockY was given: it changes every frame, so it cannot be drawn once. */
  clock?: string;
}

export function textOverlay(options: TextOverlayOptions): TextOverlay {
  const { job, width, height, font, tmpDir } = options;
  if (!font) return { files: [], filters: [] };
  const layout = layoutText(job, width, height);
  const promptFile = join(tmpDir, 'prompt.txt');
  const infoFile = join(tmpDir, 'info.txt');
  const clockFile = join(tmpDir, 'clock.txt');
  const inset = layout.margin + layout.padding;
  const common = {
    fontfile: font.path,
    fontsize: layout.fontSize,
    fontcolor: 'white',
    line_spacing: layout.lineSpacing,
    box: 1,
    boxcolor: 'black@0.55',
    boxborderw: layout.padding,
    enable: options.enable,
  };
  const filters = [
    // expansion=none: a prompt with %{...} is drawn as typed, never evaluated.
    `drawtext=${filterOptions({ ...common, textfile: promptFile, expansion: 'none', x: inset, y: inset })}`,
    `drawtext=${filterOptions({
      ...common,
      textfile: infoFile,
      expansion: 'none',
      x: inset,
      y: `h-text_h-${inset + options.bottomReserve}`,
    })}`,
  ];
  const files: PlanFile[] = [
    { path: promptFile, data: layout.prompt },
    { path: infoFile, data: layout.info },
  ];
  if (options.clockY === undefined) return { files, filters };
  // Our own text, so expansion stays on: the picture shows the playback position of each frame.
  files.push({ path: clockFile, data: '%{pts:hms}' });
  const clock = `drawtext=${filterOptions({ ...common, textfile: clockFile, x: `w-text_w-${inset}`, y: options.clockY })}`;
  return { files, filters, clock };
}
