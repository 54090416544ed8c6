// Builds the OpenAPI 3.1 document: operations as data, schemas converted from the same zod schemas the emulator uses.
import { DEFAULT_ERROR_STATUSES } from '../http/error-statuses.js';
import { VERSION } from '../version.js';
import { errorSchemas } from './error-components.js';
import { ERROR_CODE_DOCS, type ErrorCodeDoc } from './error-codes.js';
import { components, type JsonSchema, type NamedUse, namedComponents, single } from './json-schema.js';
import { type ErrorEntry, responsesOf, SHARED_HEADERS, sharedResponses, type OperationSpec } from './operation.js';
import { estimateBodySchema, generationBodySchema, publicOperations, uploadFormSchema } from './public-paths.js';
import { PUBLIC_RESPONSE_SCHEMAS } from './response-schemas.js';

export interface DocumentOptions {
  /** The emulator's `errorStatuses` overrides: the document moves each code to the status it is answered with. */
  errorStatuses?: Record<string, number>;
  /** Paths and schemas a plugin adds (the emulation plane's health, console and control plane). */
  contributions?: PathContribution[];
}

/** What a plugin adds to the document: its operations, and the schemas they refer to. */
export interface PathContribution {
  operations: OperationSpec[];
  /** Bodies and answers its operations refer to, each naming itself (`.meta({ id })`; json-schema.ts, namedComponents). */
  schemas?: NamedUse[];
  tags?: { name: string; description?: string }[];
  /** The plugin's own error codes: their statuses (the emulator's `errorStatuses` still override) and meanings. */
  errorCodes?: { statuses: Record<string, number>; docs: Record<string, ErrorCodeDoc> };
  /** Codes the plugin answers on any path whose parameter can hold what it refuses (the plane guard's). */
  pathParameterErrors?: ErrorEntry[];
}

export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
} & Record<string, unknown>;

const DESCRIPTION = [
  'Local emulator of the hosted media-generation API (`/v1/media/*`), with its control plane (`/_emulator/*`).',
  '',
  'Errors: 422 is the FastAPI/Pydantic `detail` array; every other error is `{ "error": { "code", "message" } }`, and the codes each',
  "operation can answer are listed per status, each code's envelope one shared component (`ErrorEnvelope.<code>`). On `/v1/media`",
  'a fault rule can answer any 4xx or 5xx with its own envelope (`InjectedFault`): at a status the operation lists, it is one of',
  "that status's schemas; at any other, the `default` response. A `/v1/media` path answers 405 `method_not_allowed` (with `Allow`) to another method",
  '(some emulator-only paths answer 404),',
  'and any other path 404 `route_not_found`; a path parameter that is not valid percent-encoding is a 400 `bad_request`.',
  'Browser preflights (`OPTIONS`) are answered 204 by CORS.',
  'Request schemas are generated from the zod schemas the emulator validates with, so they cannot drift.',
].join('\n');

function uploadForm(): JsonSchema {
  const form = single(uploadFormSchema, 'input');
  return {
    type: 'object',
    properties: {
      // `format: binary` is what generators read as "a file" (a Blob, a file tuple); a string here cannot be uploaded.
      file: {
        type: 'string',
        format: 'binary',
        contentMediaType: 'application/octet-stream',
        description: 'A PNG, JPEG or WebP image, checked by content. It must be a file part (with a filename).',
      },
      ...(form.properties as object),
      // An empty form value reads as absent (422 `missing`), as FastAPI reads it.
      model_slug: { ...(form.properties as Record<string, JsonSchema>).model_slug, minLength: 1 },
    },
    required: ['file', ...((form.required as string[]) ?? [])],
  };
}

const SECURITY: Record<OperationSpec['auth'], unknown[]> = {
  bearer: [{ apiKey: [] }],
  // Only when the emulator runs with an admin token; without one the control plane is open.
  admin: [{}, { adminToken: [] }, { adminTokenHeader: [] }],
  none: [],
};

/** A path parameter holding `/` (or an empty one) lands on no route: the shared 404 `route_not_found`. */
const ROUTE_NOT_FOUND = { code: 'route_not_found', statuses: [404] };

function operationObject(
  spec: OperationSpec,
  statuses: Record<string, number>,
  docs: Readonly<Record<string, ErrorCodeDoc>>,
  pathErrors: ErrorEntry[],
) {
  const op = spec.path.includes('{') ? { ...spec, errors: [...spec.errors, ROUTE_NOT_FOUND, ...pathErrors] } : spec;
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: SECURITY[op.auth],
    ...(op.parameters?.length ? { parameters: op.parameters } : {}),
    ...(op.requestBody ? { requestBody: op.requestBody } : {}),
    responses: responsesOf(op, statuses, docs),
  };
}

/**
 * Two components per error code exist; only the codes some operation answers stay. Envelopes go first (operations
 * refer to them), then the `error` members no kept envelope refers to.
 */
function pruneErrorComponents(schemas: Record<string, JsonSchema>, users: unknown[]) {
  for (const prefix of ['ErrorEnvelope.', 'Error.']) {
    const rest = Object.fromEntries(Object.entries(schemas).filter(([name]) => !name.startsWith(prefix)));
    const used = JSON.stringify([users, rest]);
    for (const name of Object.keys(schemas))
      if (name.startsWith(prefix) && !used.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  }
}

export function buildOpenApiDocument(options: DocumentOptions = {}): OpenApiDocument {
  const added = options.contributions ?? [];
  const statuses = Object.assign(
    { ...DEFAULT_ERROR_STATUSES },
    ...added.map((c) => c.errorCodes?.statuses ?? {}),
    options.errorStatuses ?? {},
  ) as Record<string, number>;
  const docs = Object.assign({ ...ERROR_CODE_DOCS }, ...added.map((c) => c.errorCodes?.docs ?? {})) as Record<
    string,
    ErrorCodeDoc
  >;
  const pathErrors = added.flatMap((c) => c.pathParameterErrors ?? []);
  const paths: OpenApiDocument['paths'] = {};
  for (const op of [...publicOperations(), ...added.flatMap((c) => c.operations)]) {
    paths[op.path] ??= {};
    paths[op.path][op.method] = operationObject(op, statuses, docs, pathErrors);
  }
  const own: Record<string, JsonSchema> = {
    ...components({ EstimateRequest: estimateBodySchema, GenerationRequest: generationBodySchema }, 'input'),
    UploadForm: uploadForm(),
    ...components({ ...PUBLIC_RESPONSE_SCHEMAS, ...errorSchemas(docs) }, 'output'),
  };
  const plugins = namedComponents(added.flatMap((c) => c.schemas ?? []));
  // A plugin's answer may hold one of the document's own components (a generation's OutputItem): the same, by name.
  const clash = Object.keys(plugins).find((n) => n in own && JSON.stringify(own[n]) !== JSON.stringify(plugins[n]));
  if (clash) throw new Error(`A plugin names a schema ${clash}, which the document already has`);
  const schemas: Record<string, JsonSchema> = { ...own, ...plugins };
  const responses = sharedResponses();
  pruneErrorComponents(schemas, [paths, responses]);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Media generation emulator',
      version: VERSION,
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'media-gen-emulator maintainers', url: 'https://www.npmjs.com/package/media-gen-emulator' },
    },
    // Relative: the emulator that serves this document (npm start and Docker listen on 8787, in-process emulators on a
    // free port), so no fixed host is written down; a client generated from a saved copy takes a base URL.
    servers: [{ url: '/', description: 'The emulator serving this document' }],
    tags: [
      { name: 'Models', description: 'The model catalogue: option groups, prices and reference-input limits.' },
      {
        name: 'Generations',
        description: 'Price, submit (idempotent, charged at once), list and read generations.',
      },
      { name: 'Account', description: 'The wallet and credit usage of the calling key.' },
      { name: 'Uploads', description: 'Reference images for `refs` and `ref_slots`.' },
      { name: 'Files', description: 'Signed output URLs: the bytes of a completed generation.' },
      ...added.flatMap((c) => c.tags ?? []),
    ],
    paths,
    components: {
      schemas,
      responses,
      headers: SHARED_HEADERS,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'sk-media-...', description: 'The API key.' },
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The admin token, when the emulator was started with one.',
        },
        adminTokenHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Emulator-Admin-Token',
          description: 'The admin token, as a header.',
        },
      },
    },
  };
}
