// GET /_emulator/health: readiness for Docker health checks and tests, with renderer, timing and clock status.
import { Router } from 'express';
import type { Emulator } from '../../emulator.js';
import { VERSION } from '../../version.js';
import { sendJson } from '../send.js';

export function healthRoutes(emulator: Emulator): Router {
  const router = Router();
  router.get('/_emulator/health', (_req, res) => {
    const ctx = emulator.context();
    const renderer = emulator.rendererInfo();
    sendJson(res, 200, {
      status: renderer ? 'ok' : 'starting',
      version: VERSION,
      renderer: renderer ?? null,
      timing: ctx.settings.timing,
      clock: { now: new Date(ctx.clock.now()).toISOString(), frozen: ctx.clock.frozen },
      generations: ctx.generations.size,
    });
  });
  return router;
}
