// GET /openapi.json: the document of this emulator, with its own error-status overrides, built once on first request.
import { Router } from 'express';
import type { Emulator } from '../emulator.js';
import { methodNotAllowed } from '../http/errors.js';
import { sendJson } from '../http/send.js';
import { buildOpenApiDocument, type OpenApiDocument } from './document.js';

export function openapiRoutes(emulator: Emulator): Router {
  const router = Router();
  let document: OpenApiDocument | undefined;
  router
    .route('/openapi.json')
    .get((_req, res) => {
      document ??= buildOpenApiDocument({ errorStatuses: emulator.options.errorStatuses });
      sendJson(res, 200, document);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
