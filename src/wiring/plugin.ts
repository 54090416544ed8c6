// The one interface through which the store of record, the emulation plane (or any other plugin) add to the service core.
import type { ResolvedOptions } from '../config.js';
import type { Catalogue } from '../domain/catalogue.js';
import type { OutputAccess, PlanAdjuster } from '../domain/context.js';
import type { PathOptions, RouteEntry } from '../http/front-door.js';
import type { ExchangeHooks } from '../http/pipeline.js';
import type { World, WorldPart } from '../http/world.js';
import type { RendererInfo } from '../infra/renderer.js';
import type { PathContribution } from '../openapi/document.js';
import type { KeptState } from './kept-state.js';

/** What a plugin is given: the emulator's settings, never the emulator object; what a world holds comes with it. */
export interface PluginSetup {
  options: ResolvedOptions;
  catalogue: Catalogue;
  /** Undefined until the renderer has found ffmpeg (or fallen back to fixtures). */
  rendererInfo(): RendererInfo | undefined;
}

/** What a plugin keeps per world, made when the world is. */
export interface WorldPartMaker<T> {
  key: WorldPart<T>;
  make(world: World): T;
}

export interface EmulatorPlugin {
  /** Its part in every exchange (src/http/pipeline.ts), in the order they run within each phase. */
  hooks?: ExchangeHooks[];
  /** Its routes, resolved by the same front door as the public API's; never under /v1/media. */
  routes?: RouteEntry[];
  /** How its paths answer other methods (the Allow of a 405, or a 404). */
  pathOptions?: Record<string, PathOptions>;
  /** What it keeps per world. */
  worldParts?: WorldPartMaker<unknown>[];
  /** Its own error codes and their statuses, added to the emulator's error table at start; `errorStatuses` overrides them. */
  errorStatuses?: Readonly<Record<string, number>>;
  /** Consulted at every accepted submission in `world`. */
  planAdjuster?: (world: World) => PlanAdjuster;
  /** Answers how `world`'s output links are signed and served (one plugin: the plane, which scripts them). */
  outputAccess?: (world: World) => OutputAccess;
  /** Throws for a prompt the plan adjuster would refuse, so POST /estimate refuses it too. */
  checkPrompt?: (prompt: string) => void;
  /** Operations and schemas the plugin adds to /openapi.json; loaded on the first request for the document. */
  openapi?: () => Promise<PathContribution>;
  /** What it keeps of a world in the store of record beside the service's records: its sections of the export document. */
  keptState?: (world: World) => KeptState;
  /** Runs after every reset of `world`, once its fresh domain state is in place. */
  afterReset?(world: World): void;
}
