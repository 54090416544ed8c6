// GET /_emulator/console: the console page and its script and style, read from src/console/ whether we run from src or dist.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import { methodNotAllowed } from '../../http/errors.js';

const ASSETS = 'src/console';

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

export function consoleRoutes(): Router {
  const dir = consoleDirectory();
  const router = Router({ caseSensitive: true });
  const headers = {
    'Cache-Control': 'no-cache',
    'Content-Security-Policy': POLICY,
    'X-Content-Type-Options': 'nosniff',
  };
  router
    .route(['/_emulator/console', '/_emulator/console/'])
    .get((_req, res, next) => {
      res.sendFile(
        join(dir, 'console.html'),
        { headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' }, lastModified: false, etag: false },
        (error) => {
          if (error && !res.headersSent) next(error);
        },
      );
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  // Only the page's own files: `index: false` and no directory listing; anything else falls through to the 404 handler.
  router.use(
    '/_emulator/console',
    express.static(dir, {
      index: false,
      redirect: false,
      etag: false,
      lastModified: false,
      setHeaders: (res) => res.set(headers),
    }),
  );
  return router;
}
