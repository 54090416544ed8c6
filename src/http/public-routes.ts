// The public API's route table: each operation once, with its method, path, operationId (as the document names it), body and handler.
import type { PathOptions, RouteEntry } from './front-door.js';
import { estimate } from './routes/estimate.js';
import { getOutputFile } from './routes/files.js';
import { getGeneration, listGenerations, submitGeneration } from './routes/generations.js';
import { JSON_BODY_LIMIT } from './routes/limits.js';
import { listModels } from './routes/models.js';
import { upload } from './routes/uploads.js';
import { usage } from './routes/usage.js';

const json = { kind: 'json', limit: JSON_BODY_LIMIT } as const;

/** Each authenticates first, then reads and validates its input, then makes one domain call. */
export const PUBLIC_ROUTES = [
  {
    method: 'GET',
    path: '/v1/media/models',
    operation: 'listModels',
    kind: 'public',
    mutates: false,
    handle: listModels,
  },
  {
    method: 'POST',
    path: '/v1/media/estimate',
    operation: 'estimate',
    kind: 'public',
    mutates: false,
    body: json,
    handle: estimate,
  },
  {
    method: 'GET',
    path: '/v1/media/generations',
    operation: 'listGenerations',
    kind: 'public',
    mutates: false,
    handle: listGenerations,
  },
  {
    method: 'POST',
    path: '/v1/media/generations',
    operation: 'submitGeneration',
    kind: 'public',
    mutates: true,
    body: json,
    handle: submitGeneration,
  },
  {
    method: 'GET',
    path: '/v1/media/generations/:generation_id',
    operation: 'getGeneration',
    kind: 'public',
    mutates: false,
    handle: getGeneration,
  },
  { method: 'GET', path: '/v1/media/usage', operation: 'getUsage', kind: 'public', mutates: false, handle: usage },
  {
    method: 'POST',
    path: '/v1/media/uploads',
    operation: 'upload',
    kind: 'public',
    mutates: true,
    body: { kind: 'form' },
    handle: upload,
  },
  // No bearer key (a <video src> cannot send one): the signature is the credential.
  {
    method: 'GET',
    path: '/files/:generation_id/:name',
    operation: 'getOutputFile',
    kind: 'download',
    mutates: false,
    handle: getOutputFile,
  },
] as const satisfies readonly RouteEntry[];

export type PublicOperation = (typeof PUBLIC_ROUTES)[number]['operation'];

/** The Allow of a 405 where it differs from the declared methods. */
export const PUBLIC_PATH_OPTIONS: Record<string, PathOptions> = {
  '/files/:generation_id/:name': { allow: ['GET', 'HEAD'] },
};
