// Per-output colours and tones: each output index gets its own hue, so the outputs of one generation look distinct.

export interface OutputPalette {
  /** Frame background, ffmpeg colour syntax (0xRRGGBB). */
  background: string;
  /** Generated end frame of a first/last video when no last image was given. */
  endBackground: string;
  /** Moving element and progress bar, a complementary colour. */
  accent: string;
  /** Same colours as [r, g, b], for the GLB material. */
  backgroundRgb: [number, number, number];
  accentRgb: [number, number, number];
  /** Tone of the audio track, so outputs also sound different. */
  toneHz: number;
}

/** Golden-angle steps keep neighbouring indices far apart on the colour wheel. */
const GOLDEN_ANGLE = 137.508;

export function paletteFor(index: number): OutputPalette {
  const hue = (210 + index * GOLDEN_ANGLE) % 360;
  const backgroundRgb = hslToRgb(hue, 0.55, 0.3);
  const accentRgb = hslToRgb((hue + 180) % 360, 0.85, 0.62);
  return {
    background: toHex(backgroundRgb),
    accent: toHex(accentRgb),
    endBackground: toHex(hslToRgb((hue + 180) % 360, 0.5, 0.28)),
    backgroundRgb,
    accentRgb,
    toneHz: [440, 554, 659, 880][index % 4]! * (1 + Math.floor(index / 4) * 0.5),
  };
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    h < 60
      ? [c, x, 0]
      : h < 120
        ? [x, c, 0]
        : h < 180
          ? [0, c, x]
          : h < 240
            ? [0, x, c]
            : h < 300
              ? [x, 0, c]
              : [c, 0, x];
  return [r, g, b].map((v) => Math.round((v + m) * 255)) as [number, number, number];
}

function toHex([r, g, b]: [number, number, number]): string {
  return `0x${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}
