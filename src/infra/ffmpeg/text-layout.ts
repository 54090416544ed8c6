// The words drawn on each output: prompt wrapped and truncated, model, options, index and identity, sized to the frame.
import type { RenderJob } from '../renderer.js';

export interface TextLayout {
  fontSize: number;
  /** Outer margin and box padding, in pixels. */
  margin: number;
  padding: number;
  lineSpacing: number;
  /** Prompt block, top left. */
  prompt: string;
  /** Model, options, output index and identity, bottom left. */
  info: string;
}

/** Advance width of DejaVu Sans Mono is 0.602 em; proportional fonts average a little less, so this never overflows much. */
const CHAR_WIDTH_EM = 0.61;
const ELLIPSIS = '…';

/**
 * Makes arbitrary user text safe to draw: newlines kept, tabs become spaces, other control and bidi-override
 * characters dropped (they would show as boxes or reorder the line). The text reaches ffmpeg through a file with
 * expansion=none, so quotes, colons, percent signs and backslashes need no escaping at all.
 */
export function sanitizeText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, ' ')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point of this pattern.
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
  );
}

/** Word-wraps to `columns` code points per line, breaking over-long words, and cuts at `maxLines` with an ellipsis. */
export function wrapText(text: string, columns: number, maxLines: number): string[] {
  const cols = Math.max(4, Math.floor(columns));
  const lines: string[] = [];
  for (const paragraph of sanitizeText(text).split('\n')) {
    let line: string[] = [];
    for (const word of paragraph.split(/ +/).filter((w) => w.length > 0)) {
      let chars = Array.from(word);
      const needed = line.length === 0 ? chars.length : line.length + 1 + chars.length;
      if (needed <= cols) {
        line = line.length === 0 ? chars : [...line, ' ', ...chars];
        continue;
      }
      if (line.length > 0) lines.push(line.join(''));
      while (chars.length > cols) {
        lines.push(chars.slice(0, cols).join(''));
        chars = chars.slice(cols);
      }
      line = chars;
    }
    lines.push(line.join(''));
    if (lines.length > maxLines) break;
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, Math.max(1, maxLines));
  const last = Array.from(kept[kept.length - 1]!);
  kept[kept.length - 1] =
    last
      .slice(0, cols - 1)
      .join('')
      .trimEnd() + ELLIPSIS;
  return kept;
}

/** Option values in a stable order, e.g. "duration=4 quality=480p size=16:9 audio=off count=1". */
export function describeParams(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('  ');
}

/** Text for a frame of `width` x `height`; font size follows the short side so 480p and 720p look alike. */
export function layoutText(job: RenderJob, width: number, height: number): TextLayout {
  const short = Math.min(width, height);
  const fontSize = Math.max(10, Math.round(short / 24));
  const margin = Math.round(fontSize * 0.8);
  const padding = Math.round(fontSize * 0.4);
  const lineSpacing = Math.round(fontSize * 0.25);
  const columns = Math.floor((width - 2 * margin - 2 * padding) / (fontSize * CHAR_WIDTH_EM));
  const lineHeight = fontSize + lineSpacing;
  // The prompt may take up to ~40% of the height; the info block and the moving element keep the rest.
  const promptLines = Math.max(1, Math.min(8, Math.floor((height * 0.4) / lineHeight)));
  const prompt = wrapText(job.prompt.trim() === '' ? '(empty prompt)' : job.prompt, columns, promptLines);
  const outputLine = `output ${job.index + 1}/${job.spec.count}  ${job.identityLabel}`;
  const info = [
    ...wrapText(job.modelSlug, columns, 1),
    ...wrapText(describeParams(job.params), columns, 3),
    ...wrapText(outputLine, columns, 2),
  ];
  return { fontSize, margin, padding, lineSpacing, prompt: prompt.join('\n'), info: info.join('\n') };
}
