// POST /v1/media/uploads: multipart `file` + `model_slug` (+ `target_slot`), read as FastAPI reads it (the host's form reader).
import { DomainError, ValidationFailure } from '../../domain/errors.js';
import { registerUpload } from '../../domain/register-upload.js';
import { validationItem, type ValidationItem } from '../../domain/validation-item.js';
import { imageProblem } from '../../infra/image-integrity.js';
import { sniffImage } from '../../infra/image-sniff.js';
import { type UploadBlobs, UploadStoreFull } from '../../infra/upload-blobs.js';
import { jsonAnswer } from '../answers.js';
import { authenticate } from '../auth.js';
import type { Exchange } from '../exchange.js';
import { lastValues } from '../validation/repeated-values.js';
import { uploadFormSchema } from '../validation/request-schemas.js';
import { toPydanticItems } from '../validation/to-pydantic.js';

function storeFull(blobs: UploadBlobs): never {
  throw new DomainError(
    'upload_storage_full',
    `The emulator's upload store holds ${blobs.bytes()} bytes; its cap is ${blobs.maxBytes}: reset the emulator or start it with a larger --max-upload-store-bytes.`,
  );
}

export async function upload(x: Exchange) {
  const key = authenticate(x);
  const { uploadBlobs, settings } = x.world;
  const read = await x.form({
    fileField: 'file',
    fields: ['model_slug', 'target_slot'],
    maxFileBytes: settings.maxUploadBytes,
  });
  const file = read.file;
  // Repeated fields take the last value, and an empty value counts as absent, as in FastAPI's form reading.
  const { file: fileText, ...form } = Object.fromEntries(
    Object.entries(lastValues(read.fields)).filter(([, v]) => v !== ''),
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
  if (!uploadBlobs.fits(file.bytes.length)) storeFull(uploadBlobs);
  const data = file.bytes;
  const sniffed = await sniffImage(data);
  const ctx = x.world.runtime.context();
  const registered = await registerUpload(ctx, key, {
    modelSlug: parsed.data.model_slug,
    targetSlot: parsed.data.target_slot,
    filename: file.filename || null,
    data,
    sniffed,
    pixelProblem: (format) => imageProblem(format, data, settings.inflatedLength),
  });
  try {
    await uploadBlobs.put(registered.id, data);
  } catch (error) {
    ctx.uploads.delete(registered.id);
    if (error instanceof UploadStoreFull) storeFull(uploadBlobs);
    throw error;
  }
  return jsonAnswer(201, registered);
}
