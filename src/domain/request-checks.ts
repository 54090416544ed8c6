// Checks shared by estimate and submission: the model exists, its rules hold, refs resolve, the key may use it.
import type { ApiKey } from './accounts.js';
import type { ModelEntry } from './catalogue-schema.js';
import type { DomainContext } from './context.js';
import { DomainError, ValidationFailure } from './errors.js';
import type { GenerationInput } from './generation-input.js';
import { checkModelRules } from './model-rules.js';
import { refIds } from './reference-rules.js';
import type { Upload } from './uploads.js';
import { validationItem, type Loc } from './validation-item.js';

export function knownModel(ctx: DomainContext, slug: string): ModelEntry {
  const model = ctx.catalogue.get(slug);
  if (!model)
    throw new DomainError(
      'model_not_found',
      `Model '${slug}' does not exist. List the available models with GET /v1/media/models.`,
    );
  return model;
}

export function checkRules(model: ModelEntry, input: GenerationInput) {
  const items = checkModelRules(model, input);
  if (items.length) throw new ValidationFailure(items);
}

function locOf(input: GenerationInput, id: string): Loc {
  const inRefs = input.refs?.indexOf(id) ?? -1;
  if (inRefs >= 0) return ['body', 'refs', inRefs];
  for (const [slot, ids] of Object.entries(input.ref_slots ?? {})) {
    const at = ids.indexOf(id);
    if (at >= 0) return ['body', 'ref_slots', slot, at];
  }
  return ['body', 'refs'];
}

/** Every ref must be an upload of this account made for this model; otherwise 422 before any charge. */
export function resolveRefs(
  ctx: DomainContext,
  key: ApiKey,
  model: ModelEntry,
  input: GenerationInput,
): Map<string, Upload> {
  const found = new Map<string, Upload>();
  const items = [];
  for (const id of refIds(input)) {
    const upload = ctx.uploads.get(id);
    if (!upload || upload.accountId !== key.accountId) {
      items.push(
        validationItem(
          'model_ref_unknown',
          locOf(input, id),
          `Unknown upload '${id}'; upload the file with POST /v1/media/uploads and pass the returned id`,
          id,
        ),
      );
    } else if (upload.modelSlug !== model.slug) {
      items.push(
        validationItem(
          'model_ref_wrong_model',
          locOf(input, id),
          `Upload '${id}' was made for model '${upload.modelSlug}'; upload it again for '${model.slug}'`,
          id,
          {
            upload_model_slug: upload.modelSlug,
          },
        ),
      );
    } else found.set(id, upload);
  }
  if (items.length) throw new ValidationFailure(items);
  return found;
}

export function checkKeyScope(key: ApiKey, model: ModelEntry) {
  if (key.modelScope !== null && key.modelScope !== model.slug)
    throw new DomainError(
      'model_not_allowed_for_key',
      `This API key is limited to model '${key.modelScope}'; use a key without a model limit for '${model.slug}'.`,
    );
}
