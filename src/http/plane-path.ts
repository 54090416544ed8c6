// Whether a request path means the emulation plane (/_emulator/*) once every encoding trick is undone.

/**
 * What a path means once every encoding trick is undone: percent-decoded (repeatedly, so `%255F` cannot hide a `_`),
 * lower-cased, `//` collapsed and dot segments resolved. Only used to decide whether a request belongs to the plane:
 * routing itself is case-sensitive, so a path that differs from its canonical form never reaches a plane route.
 */
export function canonicalPath(path: string): string {
  let decoded = path;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      break;
    }
    if (next === decoded) break;
    decoded = next;
  }
  const out: string[] = [];
  for (const segment of decoded.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`.toLowerCase();
}

const isPlane = (canonical: string) => canonical === '/_emulator' || canonical.startsWith('/_emulator/');

/** Whether a path can mean the plane at all: the cheap test that keeps the public API's hot path free of decoding. */
export function isPlanePath(path: string): boolean {
  if (!path.includes('%') && !path.includes('\\') && !path.toLowerCase().includes('_emulator')) return false;
  return isPlane(canonicalPath(path));
}
