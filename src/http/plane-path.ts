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

/** The plane's name in any case: tested on every request's path, with no lower-cased copy made for it. */
const PLANE_NAME = /_emulator/i;

/** Whether a path can mean the plane at all: the cheap test that keeps the public API's hot path free of decoding. */
export function isPlanePath(path: string): boolean {
  if (!path.includes('%') && !path.includes('\\') && !PLANE_NAME.test(path)) return false;
  return isPlane(canonicalPath(path));
}

const ENCODED_SEPARATOR = /%(2f|5c)/i;
const DOT_SEGMENT = /(^|\/)\.{1,2}(\/|$)/;

/**
 * Whether the path hides a separator or a dot segment at any depth of percent-encoding: `%2f`, `%5c`, a backslash,
 * `.` or `..` (also as `%2e`). The router matches the raw path while the guard judges the decoded one; such a path
 * would mean one thing to each, so the guard refuses it before either acts on it.
 */
export function hidesSegments(path: string): boolean {
  let form = path;
  for (let depth = 0; depth < 5; depth++) {
    if (form.includes('\\') || ENCODED_SEPARATOR.test(form) || DOT_SEGMENT.test(form)) return true;
    let next: string;
    try {
      next = decodeURIComponent(form);
    } catch {
      return false;
    }
    if (next === form) return false;
    form = next;
  }
  // Still encoded after five rounds: no client means that.
  return true;
}

/** Whether the plane's name appears in the path at any depth of percent-encoding, wherever it sits. */
export function mentionsPlane(path: string): boolean {
  if (!path.includes('%') && !PLANE_NAME.test(path)) return false;
  let form = path;
  for (let depth = 0; depth < 5; depth++) {
    if (form.toLowerCase().includes('_emulator')) return true;
    try {
      const next = decodeURIComponent(form);
      if (next === form) return false;
      form = next;
    } catch {
      return false;
    }
  }
  return false;
}
