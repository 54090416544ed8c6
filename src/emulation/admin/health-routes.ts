// GET /_emulator/health: readiness for Docker health checks and tests, with renderer, timing and clock status.
import { Router } from 'express';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import { VERSION } from '../../version.js';
import type { PluginSetup } from '../../wiring/plugin.js';
import { clockView, timingView } from '../views.js';

export function healthRoutes({ runtime, rendererInfo }: PluginSetup): Router {
  const router = Router({ caseSensitive: true });
  router
    .route('/_emulator/health')
    .get((_req, res) => {
      const ctx = runtime.context();
      const renderer = rendererInfo();
      // snake_case, like every other answer of the API and the control plane.
      const { maxParallel, ...described } = renderer ?? { maxParallel: 0 };
      sendJson(res, 200, {
        status: renderer ? 'ok' : 'starting',
        version: VERSION,
        renderer: renderer ? { ...described, max_parallel: maxParallel } : null,
        timing: timingView(ctx),
        clock: clockView(ctx),
        generations: ctx.generations.size,
      });
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
