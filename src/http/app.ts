// The Express app: an ordered, commented middleware pipeline. Routes only translate HTTP to one domain call.
import express, { type Express, type RequestHandler, type Router } from 'express';
import { errorHandler, notFound } from './errors.js';
import { sequence } from './middleware/sequence.js';
import { installResponsePipeline, type ResponseHooks } from './response-pipeline.js';
import type { RouteDeps } from './routes/deps.js';
import { estimateRoutes } from './routes/estimate.js';
import { fileRoutes } from './routes/files.js';
import { generationRoutes } from './routes/generations.js';
import { modelsRoutes } from './routes/models.js';
import { uploadRoutes } from './routes/uploads.js';
import { usageRoutes } from './routes/usage.js';

export interface AppParts {
  routes: RouteDeps;
  errorStatuses: Record<string, number>;
  /** Code renames from a calibration: the real service's code for each emulator code. */
  errorCodes?: Record<string, string>;
  log: (line: string) => void;
  /** Cross-cutting middleware that must see every request first: CORS, then what plugins add. */
  before?: RequestHandler[];
  /** Plugins' hooks in the response pipeline, in the order they run within each phase (see installResponsePipeline). */
  responseHooks?: ResponseHooks[];
  /** Routers mounted after the public API: the control plane, the console, the OpenAPI document. */
  extra?: Router[];
}

export function buildApp(parts: AppParts): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Starlette matches paths exactly: /v1/MEDIA/... and /_EMULATOR/... are 404 there, so they must be here too.
  app.set('case sensitive routing', true);
  // Repeated query parameters arrive as arrays; routes take the last value as FastAPI does.
  app.set('query parser', 'simple');
  // 0. The response pipeline: the only wrapper of res.write/res.end; its afterSend phase is armed before anything runs.
  const armAfterSend = installResponsePipeline(app, parts.responseHooks ?? []);
  // 1. Cross-cutting concerns (the beforeHandler phase), in the order given. Every request passes all of them, so
  // they run as one layer of the router (see sequence), each still as its own middleware.
  const beforeHandler = [...(armAfterSend ? [armAfterSend] : []), ...(parts.before ?? [])];
  if (beforeHandler.length > 0) app.use(sequence(beforeHandler));

  // 2. The public API. Each route authenticates first, then reads and validates its input. The routes sit on the app's
  // own router, not on a router of their own each: a mounted router is one more dispatch (enter, walk its routes,
  // restore the request) for every request that passes it.
  modelsRoutes(app, parts.routes);
  estimateRoutes(app, parts.routes);
  generationRoutes(app, parts.routes);
  usageRoutes(app, parts.routes);
  uploadRoutes(app, parts.routes);

  // 3. Signed output files: no bearer key (a <video src> cannot send one); the signature is the credential.
  fileRoutes(app, parts.routes);

  // 4. Everything emulator-specific, never under /v1/media.
  for (const router of parts.extra ?? []) app.use(router);

  // 5. Unknown routes, then the one error handler.
  app.use(notFound);
  app.use(errorHandler(parts.errorStatuses, parts.log, parts.errorCodes));
  return app;
}
