// GET /openapi.json: the document of this emulator, with its own error-status overrides, built on first request.
import { jsonAnswer } from '../http/answers.js';
import type { PathOptions, RouteEntry } from '../http/front-door.js';
import type { OpenApiDocument, PathContribution } from './document.js';

export interface OpenApiRouteParts {
  errorStatuses: Record<string, number>;
  /** What plugins add; asked for once, on the first request. */
  contributions: () => Promise<PathContribution[]>;
}

export const OPENAPI_PATH = '/openapi.json';
export const OPENAPI_PATH_OPTIONS: Record<string, PathOptions> = { [OPENAPI_PATH]: { allow: ['GET', 'HEAD'] } };

export function openapiRoute(parts: OpenApiRouteParts): RouteEntry {
  let document: Promise<OpenApiDocument> | undefined;
  return {
    method: 'GET',
    path: OPENAPI_PATH,
    operation: 'openapi',
    kind: 'emulator',
    mutates: false,
    async handle() {
      // Imported on first use: the document's modules cost ~10 ms of start-up that most runs never need.
      document ??= Promise.all([import('./document.js'), parts.contributions()]).then(([m, contributions]) =>
        m.buildOpenApiDocument({ errorStatuses: parts.errorStatuses, contributions }),
      );
      return jsonAnswer(200, await document);
    },
  };
}
