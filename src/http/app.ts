// The service as one pipeline: the public API's routes and the plugins', one front door, the hooks in order.
import { splitCors } from './cors.js';
import { errorAnswers } from './error-answers.js';
import type { Exchange, ServiceRequest } from './exchange.js';
import { type FrontDoor, frontDoor, type PathOptions, type RouteEntry } from './front-door.js';
import { createPipeline, type ExchangeHooks, type Pipeline } from './pipeline.js';
import { PUBLIC_PATH_OPTIONS, PUBLIC_ROUTES } from './public-routes.js';
import type { World, WorldResolution } from './world.js';

export interface AppParts {
  /** Routes beside the public API's: the control plane, the console, health, the OpenAPI document. */
  routes: readonly RouteEntry[];
  pathOptions?: Record<string, PathOptions>;
  /** The world a request acts on: the default one, or one the registry of worlds (sandboxes) resolves. */
  world(request: ServiceRequest): World | WorldResolution;
  /** The plane's guard, before CORS (see Pipeline). */
  guard?: (x: Exchange) => void;
  corsOrigins: string[] | '*';
  controlCorsOrigins: string[];
  /** Plugins' hooks, in the order they run within each phase. */
  hooks: readonly ExchangeHooks[];
  errorStatuses: Record<string, number>;
  /** Code renames from a calibration: the real service's code for each emulator code. */
  errorCodes?: Record<string, string>;
  log: (line: string) => void;
}

export interface App {
  pipeline: Pipeline;
  frontDoor: FrontDoor;
}

export function buildApp(parts: AppParts): App {
  const door = frontDoor([...PUBLIC_ROUTES, ...parts.routes], { ...PUBLIC_PATH_OPTIONS, ...parts.pathOptions });
  const pipeline = createPipeline({
    frontDoor: door,
    world: parts.world,
    guard: parts.guard,
    cors: splitCors(parts.corsOrigins, parts.controlCorsOrigins),
    hooks: parts.hooks,
    errors: errorAnswers(parts.errorStatuses, parts.log, parts.errorCodes),
    log: parts.log,
  });
  return { pipeline, frontDoor: door };
}
