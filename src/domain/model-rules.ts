// Model-level request rules: checks a schema-valid request against one catalogue entry and answers FastAPI-form 422 items.
import type { ModelEntry } from './catalogue-schema.js';
import type { GenerationInput } from './generation-input.js';
import { referenceItems } from './reference-rules.js';
import { listText, validationItem, type ValidationItem } from './validation-item.js';

/**
 * Every model-level problem of the request, in body order: params (request key order), prompt, refs,
 * ref_slots, ref_roles. One 422 should tell the user everything at once, as FastAPI does.
 */
export function checkModelRules(model: ModelEntry, input: GenerationInput): ValidationItem[] {
  return [
    ...paramItems(model, input.params ?? {}),
    ...promptItems(model, input.prompt),
    ...referenceItems(model, input),
  ];
}

function paramItems(model: ModelEntry, params: Record<string, string>): ValidationItem[] {
  const items: ValidationItem[] = [];
  const groups = new Map(model.option_groups.map((g) => [g.name, g]));
  const names = model.option_groups.map((g) => g.name);
  // Object.entries keeps the JSON key order, except that integer-like keys come first (a JavaScript rule).
  for (const [name, value] of Object.entries(params)) {
    const group = groups.get(name);
    if (group === undefined) {
      const msg = `Unknown option group '${name}' for model '${model.slug}'; allowed groups: ${listText(names)}`;
      items.push(
        validationItem('model_option_unknown', ['body', 'params', name], msg, value, { allowed_groups: [...names] }),
      );
    } else if (!group.values.includes(value)) {
      const msg = `Value '${value}' is not allowed for option '${name}' of model '${model.slug}'; allowed values: ${listText(group.values)}`;
      items.push(
        validationItem('model_option_value', ['body', 'params', name], msg, value, {
          allowed_values: [...group.values],
        }),
      );
    }
  }
  return items;
}

/** One item at most: an empty prompt is reported as missing even when it is long whitespace. */
function promptItems(model: ModelEntry, prompt: string): ValidationItem[] {
  const loc = ['body', 'prompt'];
  if (model.prompt.required && /^\s*$/u.test(prompt)) {
    const msg = `Model '${model.slug}' requires a prompt; describe what to generate in 'prompt'`;
    return [validationItem('model_prompt_missing', loc, msg, prompt)];
  }
  // Code points, as Python counts them: an emoji is one character, not two UTF-16 units.
  const length = [...prompt].length;
  const max = model.prompt.max_length;
  if (length <= max) return [];
  const msg = `Prompt should have at most ${max} characters for model '${model.slug}', not ${length}; shorten the prompt`;
  return [validationItem('model_prompt_too_long', loc, msg, prompt, { max_length: max })];
}
