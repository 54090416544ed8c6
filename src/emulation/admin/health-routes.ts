// GET /_emulator/health: readiness for Docker health checks and tests, with renderer, timing and clock status.
import { jsonAnswer } from '../../http/answers.js';
import type { PathOptions, RouteEntry } from '../../http/front-door.js';
import { VERSION } from '../../version.js';
import type { PluginSetup } from '../../wiring/plugin.js';
import { clockView, timingView } from '../views.js';

const HEALTH = '/_emulator/health';
export const HEALTH_PATH_OPTIONS: Record<string, PathOptions> = { [HEALTH]: { allow: ['GET', 'HEAD'] } };

export function healthRoute({ rendererInfo }: PluginSetup): RouteEntry {
  return {
    method: 'GET',
    path: HEALTH,
    operation: 'health',
    kind: 'emulator',
    mutates: false,
    handle(x) {
      const ctx = x.world.runtime.context();
      const renderer = rendererInfo();
      // snake_case, like every other answer of the API and the control plane.
      const { maxParallel, ...described } = renderer ?? { maxParallel: 0 };
      return jsonAnswer(200, {
        status: renderer ? 'ok' : 'starting',
        version: VERSION,
        renderer: renderer ? { ...described, max_parallel: maxParallel } : null,
        timing: timingView(ctx),
        clock: clockView(ctx),
        generations: ctx.generations.size,
      });
    },
  };
}
