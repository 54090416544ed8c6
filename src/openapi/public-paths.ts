// The public API (/v1/media/*) and the signed output files as documented operations, inputs taken from the validation schemas.
import {
  idempotencyHeaderSchema,
  listQuerySchema,
  modelsQuerySchema,
  uploadFormSchema,
} from '../http/validation/request-schemas.js';
import { OUTPUT_MEDIA_TYPES } from '../domain/catalogue-schema.js';
import { objectMembers } from './json-schema.js';
import { json, ref, type OperationSpec, type Parameter } from './operation.js';

export const AUTH_ERRORS = ['missing_api_key', 'malformed_api_key', 'invalid_api_key', 'revoked_api_key'];
/** Reading any body: a stall past bodyTimeout, or request bodies already at their byte cap. */
const READ_ERRORS = ['request_timeout', 'server_busy'];
/** What reading a JSON body can refuse before validation. */
const BODY_ERRORS = ['payload_too_large', 'body_not_utf8', 'body_too_deep', 'bad_request', ...READ_ERRORS];
const MODEL_ERRORS = ['model_not_found', 'model_not_allowed_for_key'];
/** A path parameter that is not valid percent-encoding is refused by the router before the route runs. */
export const BAD_PATH = { code: 'bad_request', statuses: [400] };
/** Every request that may change state is committed to the store of record before its answer; a full disk is a 507. */
export const STORAGE_FULL = 'storage_full';

/** Query and header parameters straight from the zod schemas the routes (and control operations) validate with. */
export function parameters(
  schema: Parameters<typeof objectMembers>[0],
  where: 'query' | 'header',
  names?: Record<string, string>,
): Parameter[] {
  return objectMembers(schema, 'input').map((m) => ({
    name: names?.[m.name] ?? m.name,
    in: where,
    required: m.required,
    schema: m.schema,
  }));
}

const jsonBody = (component: string) => ({
  required: true,
  content: { 'application/json': { schema: ref(component) } },
});

/**
 * Bytes, as a generated client should hand them over (a Blob, a file object), in every media type the file route
 * serves: the catalogue ties each output format to its type.
 */
const binaryContent = () =>
  Object.fromEntries(
    Object.values(OUTPUT_MEDIA_TYPES).map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
  );

/** Fault rules act on every operation of the public API and on signed downloads. */
export function publicOperations(): OperationSpec[] {
  return apiOperations().map((op) => ({ ...op, faults: true }));
}

function apiOperations(): OperationSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/media/models',
      operationId: 'listModels',
      summary: 'The model catalogue',
      description:
        'Option groups, prices and reference-input limits of every model, optionally filtered by kind (spec 4.1).',
      tag: 'Models',
      auth: 'bearer',
      parameters: parameters(modelsQuerySchema, 'query'),
      responses: { 200: json(ref('ModelList'), 'The catalogue.') },
      errors: AUTH_ERRORS,
      validation: true,
    },
    {
      method: 'post',
      path: '/v1/media/estimate',
      operationId: 'estimate',
      summary: 'Price an input without charging',
      description: 'Runs every check a submission runs except the wallet and `max_credits` (spec 4.2).',
      tag: 'Generations',
      auth: 'bearer',
      requestBody: jsonBody('EstimateRequest'),
      responses: { 200: json(ref('Estimate'), 'The price and the wallet balance.') },
      errors: [...AUTH_ERRORS, ...MODEL_ERRORS, ...BODY_ERRORS, STORAGE_FULL],
      validation: true,
    },
    {
      method: 'post',
      path: '/v1/media/generations',
      operationId: 'submitGeneration',
      summary: 'Submit a generation',
      description:
        'Checks, charges and accepts in one step (spec 4.3). A repeated Idempotency-Key with the same body replays the original answer ' +
        '(`replayed: true`, no second charge); with another body it is refused with 409.',
      tag: 'Generations',
      auth: 'bearer',
      parameters: parameters(idempotencyHeaderSchema, 'header', { 'idempotency-key': 'Idempotency-Key' }),
      requestBody: jsonBody('GenerationRequest'),
      responses: {
        202: json(ref('Acceptance'), 'Accepted (or replayed): the generation is `pending` on a new submission.'),
      },
      errors: [
        ...AUTH_ERRORS,
        ...MODEL_ERRORS,
        'idempotency_key_reused',
        STORAGE_FULL,
        'max_credits_exceeded',
        'daily_credit_limit_exceeded',
        'insufficient_credits',
        ...BODY_ERRORS,
      ],
      validation: true,
    },
    {
      method: 'get',
      path: '/v1/media/generations',
      operationId: 'listGenerations',
      summary: "A page of the account's generations",
      description:
        'Newest first; `next_cursor` pages back in time and stays stable while new generations arrive (spec 4.4). A repeated parameter takes its last value.',
      tag: 'Generations',
      auth: 'bearer',
      parameters: parameters(listQuerySchema, 'query'),
      responses: { 200: json(ref('GenerationPage'), 'One page.') },
      errors: AUTH_ERRORS,
      validation: true,
    },
    {
      method: 'get',
      path: '/v1/media/generations/{generation_id}',
      operationId: 'getGeneration',
      summary: 'Read one generation',
      description: 'Output URLs are signed afresh on every read (spec 4.5). Reads never change state.',
      tag: 'Generations',
      auth: 'bearer',
      parameters: [{ name: 'generation_id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { 200: json(ref('GenerationEnvelope'), 'The generation.') },
      errors: [...AUTH_ERRORS, 'generation_not_found', BAD_PATH],
    },
    {
      method: 'get',
      path: '/v1/media/usage',
      operationId: 'getUsage',
      summary: 'Balance and credit usage',
      description:
        "The wallet balance, today's credits (UTC, on the emulator clock), totals per model and the calling key's daily limit.",
      tag: 'Account',
      auth: 'bearer',
      responses: { 200: json(ref('Usage'), 'Usage of the account and of the calling key.') },
      errors: AUTH_ERRORS,
    },
    {
      method: 'post',
      path: '/v1/media/uploads',
      operationId: 'upload',
      summary: 'Register a reference image',
      description:
        "The returned `id` goes in `refs` or `ref_slots` (spec 4.7). The image is checked by content against the model's limits.",
      tag: 'Uploads',
      auth: 'bearer',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: ref('UploadForm'),
            // Any type is read (the content decides); these are the ones a model can accept.
            encoding: { file: { contentType: 'image/png, image/jpeg, image/webp, application/octet-stream' } },
          },
        },
      },
      responses: { 201: json(ref('Upload'), 'The registered upload.') },
      errors: [
        ...AUTH_ERRORS,
        ...MODEL_ERRORS,
        'upload_too_large',
        'unsupported_media_type',
        'malformed_multipart',
        'upload_storage_full',
        STORAGE_FULL,
        'body_not_utf8',
        'payload_too_large',
        ...READ_ERRORS,
      ],
      validation: true,
    },
    {
      method: 'get',
      path: '/files/{generation_id}/{name}',
      operationId: 'getOutputFile',
      summary: 'A signed output file',
      description:
        'No bearer key: the signature is the credential (a `<video src>` cannot send headers). Checked with HMAC-SHA256 against the emulator ' +
        'clock; byte ranges are served for seeking. HEAD is answered too.',
      tag: 'Files',
      auth: 'none',
      parameters: [
        { name: 'generation_id', in: 'path', required: true, schema: { type: 'string' } },
        {
          name: 'name',
          in: 'path',
          required: true,
          description: '`{index}.{format}`, e.g. `0.mp4`',
          schema: { type: 'string' },
        },
        { name: 'expires', in: 'query', schema: { type: 'string', pattern: '^[0-9]+$' } },
        { name: 'signature', in: 'query', schema: { type: 'string' } },
        { name: 'Range', in: 'header', schema: { type: 'string' } },
      ],
      responses: {
        200: {
          description: 'The file.',
          content: binaryContent(),
          headers: { 'Accept-Ranges': { schema: { type: 'string', const: 'bytes' } } },
        },
        206: {
          description: 'The requested byte range.',
          content: binaryContent(),
          headers: {
            'Content-Range': {
              required: true,
              description: '`bytes first-last/size`',
              schema: { type: 'string', pattern: '^bytes [0-9]+-[0-9]+/[0-9]+$' },
            },
          },
        },
      },
      errors: [
        'url_unsigned',
        'url_signature_invalid',
        'url_expired',
        'output_not_found',
        'output_unavailable',
        { code: 'bad_request', statuses: [400, 416] },
      ],
    },
  ];
}

/** Request bodies as components, converted from the validation schemas by the document builder. */
export { estimateBodySchema, generationBodySchema } from '../http/validation/request-schemas.js';
export { uploadFormSchema };
