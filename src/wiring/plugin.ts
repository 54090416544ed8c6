// The one interface through which the store of record, the emulation plane (or any other plugin) add to the service core.
import type { RequestHandler, Router } from 'express';
import type { ResolvedOptions } from '../config.js';
import type { Catalogue } from '../domain/catalogue.js';
import type { PlanAdjuster } from '../domain/context.js';
import type { Runtime } from '../domain/runtime.js';
import type { BodyReading } from '../http/body/body-reading.js';
import type { ResponseHooks } from '../http/response-pipeline.js';
import type { RendererInfo } from '../infra/renderer.js';
import type { UploadBlobs } from '../infra/upload-blobs.js';
import type { PathContribution } from '../openapi/document.js';
import type { KeptState } from './kept-state.js';

/** What a plugin is given: a small handle on the running service, never the emulator object. */
export interface PluginSetup {
  runtime: Runtime;
  options: ResolvedOptions;
  catalogue: Catalogue;
  /** Undefined until the renderer has found ffmpeg (or fallen back to fixtures). */
  rendererInfo(): RendererInfo | undefined;
  /** Reference-upload bytes on disk (a state import writes inline ones here). */
  uploadBlobs: UploadBlobs;
  /** How the public API reads a body; middleware that reads one ahead of a route must read it the same way. */
  bodies: BodyReading;
}

export interface EmulatorPlugin {
  /** Runs before the public API (after CORS), on every request. */
  middleware?: RequestHandler[];
  /** Its hooks in the response pipeline (src/http/response-pipeline.ts), in the order they run within each phase. */
  responseHooks?: ResponseHooks[];
  /** Mounted after the public API and the file routes; never under /v1/media. */
  routes?: Router[];
  /** Its own error codes and their statuses, added to the emulator's error table at start; `errorStatuses` overrides them. */
  errorStatuses?: Readonly<Record<string, number>>;
  /** Consulted at every accepted submission. */
  planAdjuster?: PlanAdjuster;
  /** Throws for a prompt the plan adjuster would refuse, so POST /estimate refuses it too. */
  checkPrompt?: (prompt: string) => void;
  /** Operations and schemas the plugin adds to /openapi.json; loaded on the first request for the document. */
  openapi?: () => Promise<PathContribution>;
  /** What it keeps in the store of record beside the service's records: its sections of the export document. */
  keptState?: KeptState;
  /** Runs after every reset, once the fresh domain state is in place. */
  afterReset?(): void;
}
