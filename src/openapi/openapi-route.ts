// GET /openapi.json: the document of this emulator, with its own error-status overrides, built on first request.
import { Router } from 'express';
import type { Emulator } from '../emulator.js';
import { methodNotAllowed } from '../http/errors.js';
import { sendJson } from '../http/send.js';
import type { OpenApiDocument } from './document.js';

export function openapiRoutes(emulator: Emulator): Router {
  const router = Router({ caseSensitive: true });
  let document: Promise<OpenApiDocument> | undefined;
  router
    .route('/openapi.json')
    .get(async (_req, res) => {
      // Imported on first use: the document's modules cost ~10 ms of start-up that most runs never need.
      document ??= import('./document.js').then((m) =>
        m.buildOpenApiDocument({ errorStatuses: emulator.options.errorStatuses }),
      );
      sendJson(res, 200, await document);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
