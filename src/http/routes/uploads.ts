// POST /v1/media/uploads: multipart `file` + `model_slug` (+ `target_slot`), read as FastAPI reads it (multipart-form.ts).
import express, { type IRouter } from 'express';
import { DomainError, ValidationFailure } from '../../domain/errors.js';
import { registerUpload } from '../../domain/register-upload.js';
import { imageProblem } from '../../infra/image-integrity.js';
import { sniffImage } from '../../infra/image-sniff.js';
import { type UploadBlobs, UploadStoreFull } from '../../infra/upload-blobs.js';
import { validationItem, type ValidationItem } from '../../domain/validation-item.js';
import { authenticate } from '../auth.js';
import { apiKeyOf } from '../request-locals.js';
import { methodNotAllowed } from '../errors.js';
import { asSent } from '../body/body-reading.js';
import { formFileOf, multipartForm, STARLETTE_LIMITS } from '../multipart-form.js';
import { sendJson } from '../send.js';
import { uploadFormSchema } from '../validation/request-schemas.js';
import { lastValues } from '../validation/repeated-values.js';
import { toPydanticItems } from '../validation/to-pydantic.js';
import type { RouteDeps } from './deps.js';

function storeFull(blobs: UploadBlobs): never {
  throw new DomainError(
    'upload_storage_full',
    `The emulator's upload store holds ${blobs.bytes()} bytes; its cap is ${blobs.maxBytes}. Reset the emulator (POST /_emulator/reset) or start it with a larger --max-upload-store-bytes.`,
  );
}

/** An urlencoded form carries no file, so it is read only this far (413 past it). */
const FORM_LIMIT = 64 * 1024;

export function uploadRoutes(router: IRouter, deps: RouteDeps): void {
  // FastAPI reads urlencoded forms too (they simply carry no file), so both parsers run; each skips the other's type.
  const urlencoded = asSent(express.urlencoded({ extended: false, limit: FORM_LIMIT }));
  const multipart = multipartForm({
    fileField: 'file',
    fields: ['model_slug', 'target_slot'],
    maxFileBytes: deps.maxUploadBytes,
  });
  // The most either holds: the file (and a byte past its limit), model_slug and target_slot; other parts are dropped.
  const maxHeld = deps.maxUploadBytes + 1 + 2 * (STARLETTE_LIMITS.maxPartBytes + 1);
  const readForm = deps.bodies.guarded(maxHeld, (req, res, next) =>
    urlencoded(req, res, (error?: unknown) => (error ? next(error) : multipart(req, res, next))),
  );
  router
    .route('/v1/media/uploads')
    .post(authenticate(deps.ctx), readForm, async (req, res) => {
      const file = formFileOf(res);
      // Repeated fields take the last value, and an empty value counts as absent, as in FastAPI's form reading.
      const { file: fileText, ...form } = Object.fromEntries(
        Object.entries(lastValues((req.body ?? {}) as Record<string, unknown>)).filter(([, v]) => v !== ''),
      );
      const items: ValidationItem[] = [];
      // A `file` part without a filename is a plain form value to Starlette, which FastAPI refuses as not an upload.
      if (!file && typeof fileText === 'string')
        items.push(
          validationItem(
            'value_error',
            ['body', 'file'],
            "Value error, Expected UploadFile, received: <class 'str'>",
            fileText,
            {
              error: {},
            },
          ),
        );
      else if (!file) items.push(validationItem('missing', ['body', 'file'], 'Field required', null));
      const parsed = uploadFormSchema.safeParse(form);
      if (!parsed.success)
        items.push(
          ...toPydanticItems(parsed.error.issues, form, ['body']).map((i) =>
            i.type === 'missing' ? { ...i, input: null } : i,
          ),
        );
      if (items.length || !parsed.success || !file) throw new ValidationFailure(items);
      // Checked before an id is drawn, so a refusal skips no seeded id; put() checks again for concurrent uploads.
      if (!deps.uploadBlobs.fits(file.size)) storeFull(deps.uploadBlobs);
      const ctx = deps.ctx();
      const data = file.buffer;
      const upload = await registerUpload(ctx, apiKeyOf(res), {
        modelSlug: parsed.data.model_slug,
        targetSlot: parsed.data.target_slot,
        filename: file.originalname || null,
        data,
        sniffed: sniffImage(data),
        pixelProblem: (format) => imageProblem(format, data),
      });
      try {
        await deps.uploadBlobs.put(upload.id, file.buffer);
      } catch (error) {
        ctx.uploads.delete(upload.id);
        if (error instanceof UploadStoreFull) storeFull(deps.uploadBlobs);
        throw error;
      }
      sendJson(res, 201, upload);
    })
    .all(methodNotAllowed(['POST']));
}
