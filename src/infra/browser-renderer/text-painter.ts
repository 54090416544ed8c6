// The request text on a 2D canvas, placed as text-overlay.ts places drawtext's: prompt top left, info bottom left, clock.
import { layoutText } from '../ffmpeg/text-layout.js';
import type { RenderJob } from '../renderer.js';

/** drawtext's box colour (black@0.55) and text colour. */
const BOX = 'rgba(0, 0, 0, 0.55)';
const INK = 'white';

export interface TextPainter {
  /** Prompt and info boxes, drawn once onto a transparent layer that every frame reuses. */
  layer: OffscreenCanvas;
  /** The running clock (video only): `seconds` as drawtext's %{pts:hms}, right-aligned at `y`. */
  clock(ctx: OffscreenCanvasRenderingContext2D, seconds: number, y: number): void;
}

/** "HH:MM:SS.mmm", as ffmpeg's %{pts:hms} writes a frame's time. */
export function hms(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${two(h)}:${two(m)}:${two(s)}.${String(ms % 1000).padStart(3, '0')}`;
}

export function createTextPainter(
  job: RenderJob,
  width: number,
  height: number,
  fontFamily: string,
  /** Pixels kept free at the bottom (the progress bar). */
  bottomReserve: number,
): TextPainter {
  const layout = layoutText(job, width, height);
  const font = `${layout.fontSize}px ${fontFamily}`;
  const inset = layout.margin + layout.padding;
  const lineHeight = layout.fontSize + layout.lineSpacing;
  const blockHeight = (lines: string[]): number =>
    lines.length * layout.fontSize + Math.max(0, lines.length - 1) * layout.lineSpacing;

  /** drawtext with box=1: one box around the whole block, `padding` wide on every side. */
  const block = (ctx: OffscreenCanvasRenderingContext2D, lines: string[], x: number, y: number): void => {
    const textWidth = Math.max(0, ...lines.map((line) => ctx.measureText(line).width));
    const pad = layout.padding;
    ctx.fillStyle = BOX;
    ctx.fillRect(x - pad, y - pad, Math.ceil(textWidth) + 2 * pad, blockHeight(lines) + 2 * pad);
    ctx.fillStyle = INK;
    for (const [i, line] of lines.entries()) ctx.fillText(line, x, y + i * lineHeight);
  };
  const prepare = (ctx: OffscreenCanvasRenderingContext2D): void => {
    ctx.font = font;
    ctx.textBaseline = 'top';
  };

  const layer = new OffscreenCanvas(width, height);
  const ctx = layer.getContext('2d')!;
  prepare(ctx);
  block(ctx, layout.prompt.split('\n'), inset, inset);
  const info = layout.info.split('\n');
  block(ctx, info, inset, height - blockHeight(info) - inset - bottomReserve);

  return {
    layer,
    clock(target, seconds, y) {
      prepare(target);
      const text = hms(seconds);
      block(target, [text], width - target.measureText(text).width - inset, y);
    },
  };
}
