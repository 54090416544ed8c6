// Picks a TrueType font for drawtext: an explicit path, the one shipped in fixtures/, then well-known system fonts.
import { access } from 'node:fs/promises';
import { findUp } from './find-up.js';

export interface FontChoice {
  path: string;
  /** Where it came from, for the start-up log line. */
  source: 'option' | 'fixtures' | 'system';
  /** Monospace fonts let the text layout wrap by character count exactly. */
  monospace: boolean;
}

/** Fixture font first, so the pixels are the same on every machine; system fonts only when it is missing. */
const SHIPPED_FONT = 'fixtures/fonts/DejaVuSansMono.ttf';

const SYSTEM_FONTS: ReadonlyArray<{ path: string; monospace: boolean }> = [
  { path: '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf', monospace: true }, // Debian, Ubuntu
  { path: '/usr/share/fonts/dejavu/DejaVuSansMono.ttf', monospace: true }, // Fedora, Alpine
  { path: '/usr/share/fonts/TTF/DejaVuSansMono.ttf', monospace: true }, // Arch
  { path: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', monospace: false },
  { path: '/System/Library/Fonts/Supplemental/Courier New.ttf', monospace: true }, // macOS
  { path: '/Library/Fonts/Arial.ttf', monospace: false },
  { path: 'C:\\Windows\\Fonts\\consola.ttf', monospace: true },
  { path: 'C:\\Windows\\Fonts\\arial.ttf', monospace: false },
];

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** Undefined means no font at all: renders then carry no text rather than fail. */
export async function findFont(explicitPath?: string): Promise<FontChoice | undefined> {
  if (explicitPath && (await exists(explicitPath))) {
    return { path: explicitPath, source: 'option', monospace: /mono|courier|consol|menlo/i.test(explicitPath) };
  }
  const shipped = await findUp(SHIPPED_FONT);
  if (shipped) return { path: shipped, source: 'fixtures', monospace: true };
  for (const font of SYSTEM_FONTS) {
    if (await exists(font.path)) return { path: font.path, source: 'system', monospace: font.monospace };
  }
  return undefined;
}
