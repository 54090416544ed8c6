// The control plane's routes from the registry: one route per operation, resolved by the front door like the public API's.
import { jsonAnswer } from '../../http/answers.js';
import { baseUrlOf } from '../../http/base-url.js';
import type { RouteEntry } from '../../http/front-door.js';
import type { World } from '../../http/world.js';
import { STORE_HANDLE } from '../../wiring/kept-state.js';
import { type ControlDeps, PLANE_STATE } from '../plane-state.js';
import { SANDBOXES } from '../sandboxes/sandbox-directory.js';
import { loadPatternEngine } from '../faults/fault-patterns.js';
import { controlBody } from './control-body.js';
import { type AnyOperation, runOperation } from './operation.js';
import { operationEntries } from './registry.js';

/** A control body's limit unless the operation names its own (the state import). */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** What every world's operations share: the emulator's options, its renderer, the host's scenarios. */
export type ControlSetup = Pick<ControlDeps, 'options' | 'rendererInfo' | 'scenarios'>;

/** What an operation acts on: a world, its output links signed for `baseUrl` (default: the configured public URL). */
export function controlDeps(world: World, setup: ControlSetup, baseUrl?: string): ControlDeps {
  const own = world.settings.options;
  return {
    runtime: world.runtime,
    state: world.part(PLANE_STATE),
    // A sandbox's own options (its seeded key, balance, timing) where it has them.
    options: own ? { ...setup.options, ...own } : setup.options,
    rendererInfo: setup.rendererInfo,
    store: world.part(STORE_HANDLE),
    sandboxes: world.find(SANDBOXES),
    world: own === undefined ? undefined : world.name,
    baseUrl: baseUrl ?? setup.options.publicBaseUrl,
    scenarios: setup.scenarios,
  };
}

function route(id: string, op: AnyOperation, setup: ControlSetup): RouteEntry {
  const limit = op.bodyLimit ?? DEFAULT_BODY_LIMIT;
  return {
    method: op.method.toUpperCase(),
    path: op.path,
    operation: id,
    kind: 'control',
    mutates: op.method !== 'get',
    // Only a declared body is read: anything sent to another operation is left unread.
    body: op.body ? { kind: 'plane-json', limit } : undefined,
    async handle(x) {
      const body = op.body ? await controlBody(x, limit) : undefined;
      const deps = controlDeps(x.world, setup, baseUrlOf(x.request, setup.options.publicBaseUrl));
      // As the in-process client does (plugin.ts): a change may compile fault patterns, so re2js is in place first.
      if (op.method !== 'get') await loadPatternEngine();
      const answer = await runOperation(op, deps, {
        params: x.dispatch.params,
        query: x.request.query,
        body,
      });
      if (op.status === 204) return { status: 204, headers: {}, body: undefined };
      return jsonAnswer(op.status ?? 200, answer);
    },
  };
}

/** The control plane under /_emulator/* (the plane guard in front checks Host and token). Never under /v1/media. */
export function controlRoutes(setup: ControlSetup): RouteEntry[] {
  return operationEntries().map(([id, op]) => route(id, op, setup));
}
