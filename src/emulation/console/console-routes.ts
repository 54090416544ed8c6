// GET /_emulator/console: the console page and its script and style, read from src/console/ whether we run from src or dist.
import { existsSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { routeNotFound } from '../../http/error-answers.js';
import type { Exchange } from '../../http/exchange.js';
import { fileAnswer } from '../../http/file-answer.js';
import type { PathOptions, RouteEntry } from '../../http/front-door.js';

const ASSETS = 'src/console';
const PAGE = '/_emulator/console';
const ASSET = '/_emulator/console/:asset';

/** tsc copies no .html/.js/.css, so the files stay in src/console/ (shipped in the package and the image) and are found by walking up. */
function consoleDirectory(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ASSETS, 'console.html'))) return join(dir, ASSETS);
    if (dirname(dir) === dir) throw new Error(`console assets not found: no ${ASSETS}/console.html above ${from}`);
  }
}

// The page may only talk to its own origin; outputs may live on MEDIA_EMULATOR_PUBLIC_URL, so media may come from anywhere.
const POLICY =
  "default-src 'self'; media-src * blob: data:; img-src * data: blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const HEADERS = {
  'Cache-Control': 'no-cache',
  'Content-Security-Policy': POLICY,
  'X-Content-Type-Options': 'nosniff',
};

/** The types of the console's own files (as `send` named them). */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const ASSET_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** The size of a file of the folder itself, or undefined for a folder or nothing. */
function fileSize(path: string): number | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
}

/** The page, and only the page's own files: no index, no listing; any other name or method is a 404. */
export function consoleRoutes(): RouteEntry[] {
  const dir = consoleDirectory();
  const serve = (x: Exchange, name: string) => {
    // A plain file name only (no dot file, no separator): nothing from the request reaches past the folder.
    const path = join(dir, name);
    const size = ASSET_NAME.test(name) ? fileSize(path) : undefined;
    if (size === undefined) return routeNotFound(x.request);
    return fileAnswer(x.request, { path }, size, {
      ...HEADERS,
      'Content-Type': TYPES[extname(name)] ?? 'application/octet-stream',
    });
  };
  const get = (path: string, operation: string, name: (x: Exchange) => string): RouteEntry => ({
    method: 'GET',
    path,
    operation,
    kind: 'emulator',
    mutates: false,
    handle: (x) => serve(x, name(x)),
  });
  return [get(PAGE, 'console', () => 'console.html'), get(ASSET, 'consoleAsset', (x) => x.dispatch.params.asset)];
}

export const CONSOLE_PATH_OPTIONS: Record<string, PathOptions> = {
  [PAGE]: { allow: ['GET', 'HEAD'] },
  [ASSET]: { otherMethods: 'not_found' },
};
