// GET /openapi.json: the document of this emulator, with its own error-status overrides, built on first request.
import { Router } from 'express';
import { methodNotAllowed } from '../http/errors.js';
import { sendJson } from '../http/send.js';
import type { OpenApiDocument, PathContribution } from './document.js';

export interface OpenApiRouteParts {
  errorStatuses: Record<string, number>;
  /** What plugins add; asked for once, on the first request. */
  contributions: () => Promise<PathContribution[]>;
}

export function openapiRoutes(parts: OpenApiRouteParts): Router {
  const router = Router({ caseSensitive: true });
  let document: Promise<OpenApiDocument> | undefined;
  router
    .route('/openapi.json')
    .get(async (_req, res) => {
      // Imported on first use: the document's modules cost ~10 ms of start-up that most runs never need.
      document ??= Promise.all([import('./document.js'), parts.contributions()]).then(([m, contributions]) =>
        m.buildOpenApiDocument({ errorStatuses: parts.errorStatuses, contributions }),
      );
      sendJson(res, 200, await document);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
