// Model-level rules of a request's reference inputs (refs, ref_slots, ref_roles) and which ref is which frame.
import type { ModelEntry, RefSlot, ReferenceInputs } from './catalogue-schema.js';
import type { GenerationInput } from './generation-input.js';
import { listText, validationItem, type Loc, type ValidationItem } from './validation-item.js';

/** Ref ids (upload identifiers) by frame role. */
export interface FrameAssignment {
  first?: string;
  last?: string;
}

type Role = RefSlot['role'];
type RefMember = 'refs' | 'ref_slots' | 'ref_roles';
type RefForm = ReferenceInputs['accepts'][number] | 'http_url' | 'path';

/** How a ref was written, for the message: "Reference 'x' is a file path". */
const FORM_NAMES: Record<RefForm, string> = {
  upload_id: 'an upload identifier',
  https_url: 'an HTTPS URL',
  data_uri: 'a data: URI',
  http_url: 'an HTTP URL',
  path: 'a file path',
};

/** What a model accepts, for the message: "accepts only upload identifiers". */
const ACCEPTED_NAMES: Record<ReferenceInputs['accepts'][number], string> = {
  upload_id: 'upload identifiers',
  https_url: 'public HTTPS image URLs',
  data_uri: 'data:image/png|jpeg|webp;base64 URIs',
};

/** The reference problems of the request, in body order: refs, ref_slots, ref_roles. */
export function referenceItems(model: ModelEntry, input: GenerationInput): ValidationItem[] {
  const refs = model.reference_inputs;
  if (refs === null) return notSupportedItems(model, input);
  return [...refsItems(model, refs, input), ...slotItems(model, refs, input), ...roleItems(model, refs, input)];
}

/** Every ref id mentioned in refs and ref_slots, in order, each once. */
export function refIds(input: GenerationInput): string[] {
  const seen = new Set<string>(input.refs ?? []);
  for (const ids of Object.values(input.ref_slots ?? {})) for (const id of ids) seen.add(id);
  return [...seen];
}

/**
 * Which ref is the first and which the last frame. Precedence: ref_slots (the slot names its role), then
 * ref_roles (for refs not placed by a slot), then order: the remaining refs take the remaining roles in the
 * model's slot order, so for Model B refs[0] is first and refs[1] last unless a slot or role says otherwise.
 * Assumes checkModelRules found nothing; on a conflicting request the earlier source simply wins.
 */
export function assignFrames(model: ModelEntry, input: GenerationInput): FrameAssignment {
  const slots = model.reference_inputs?.slots ?? [];
  const owners = slotOwners(slots, input);
  const taken = new Set(owners.values());
  const give = (role: Role, id: string) => {
    if (owners.has(role) || taken.has(id)) return;
    owners.set(role, id);
    taken.add(id);
  };
  const refs = [...new Set(input.refs ?? [])];
  for (const [id, role] of Object.entries(input.ref_roles ?? {})) {
    if (refs.includes(id) && slots.some((s) => s.role === role)) give(role, id);
  }
  const freeRoles = slots.map((s) => s.role).filter((role) => !owners.has(role));
  for (const id of refs.filter((ref) => !taken.has(ref))) {
    const role = freeRoles.shift();
    if (role === undefined) break;
    give(role, id);
  }
  const frames: FrameAssignment = {};
  for (const role of ['first', 'last'] as const) {
    const id = owners.get(role);
    if (id !== undefined) frames[role] = id;
  }
  return frames;
}

/** Empty members are not reported: `refs: []` asks for nothing the model lacks. */
function notSupportedItems(model: ModelEntry, input: GenerationInput): ValidationItem[] {
  const items: ValidationItem[] = [];
  for (const member of ['refs', 'ref_slots', 'ref_roles'] as const) {
    const value = input[member];
    if (value === undefined || Object.keys(value).length === 0) continue;
    const msg = `Model '${model.slug}' takes no reference inputs; remove '${member}' from the request`;
    items.push(validationItem('model_refs_not_supported', ['body', member], msg, value, { max_files: 0 }));
  }
  return items;
}

function refsItems(model: ModelEntry, refs: ReferenceInputs, input: GenerationInput): ValidationItem[] {
  const items: ValidationItem[] = [];
  // Spec 8 limits "refs items": a repeated id is another item. Slot ids add only when refs does not list them.
  const listed = new Set(input.refs);
  const total = (input.refs?.length ?? 0) + refIds(input).filter((id) => !listed.has(id)).length;
  if (total > refs.max_files) {
    // Point at refs when it was sent; otherwise the surplus came from ref_slots alone.
    const member = (input.refs?.length ?? 0) > 0 ? 'refs' : 'ref_slots';
    const msg =
      `Model '${model.slug}' accepts at most ${refs.max_files} reference file${refs.max_files === 1 ? '' : 's'}, ` +
      `not ${total}; remove ${total - refs.max_files}`;
    items.push(
      validationItem('model_refs_too_many', ['body', member], msg, input[member], { max_files: refs.max_files }),
    );
  }
  (input.refs ?? []).forEach((ref, i) => {
    items.push(...unsupportedItems(model, refs, ref, ['body', 'refs', i], 'refs'));
  });
  return items;
}

function slotItems(model: ModelEntry, refs: ReferenceInputs, input: GenerationInput): ValidationItem[] {
  const items: ValidationItem[] = [];
  const names = refs.slots.map((s) => s.name);
  for (const [key, ids] of Object.entries(input.ref_slots ?? {})) {
    const loc = ['body', 'ref_slots', key];
    if (!names.includes(key)) {
      const msg = `Unknown reference slot '${key}' for model '${model.slug}'; allowed slots: ${listText(names)}`;
      items.push(validationItem('model_ref_slot_unknown', loc, msg, ids, { allowed_slots: [...names] }));
    } else if (ids.length > 1) {
      const msg = `Slot '${key}' of model '${model.slug}' takes one reference, not ${ids.length}; keep one id`;
      items.push(validationItem('model_ref_slot_too_many', loc, msg, ids, { max_items: 1 }));
    } else {
      ids.forEach((id, i) => {
        items.push(...unsupportedItems(model, refs, id, [...loc, i], 'ref_slots'));
      });
    }
  }
  return items;
}

/** Roles placed by ref_slots come first (they take precedence), so ref_roles may not contradict them. */
function roleItems(model: ModelEntry, refs: ReferenceInputs, input: GenerationInput): ValidationItem[] {
  const items: ValidationItem[] = [];
  const listed = input.refs ?? [];
  const roles = refs.slots.map((s) => s.role);
  const owners = slotOwners(refs.slots, input);
  const roleOf = new Map([...owners].map(([role, id]) => [id, role]));
  for (const [key, role] of Object.entries(input.ref_roles ?? {})) {
    const loc = ['body', 'ref_roles', key];
    const conflict = (msg: string, ctx: Record<string, unknown>) =>
      items.push(validationItem('model_ref_role_conflict', loc, msg, role, { role, ...ctx }));
    const owner = owners.get(role);
    const current = roleOf.get(key);
    if (!listed.includes(key)) {
      const msg = `Reference '${key}' in ref_roles is not one of refs; use ids listed in refs as keys of ref_roles`;
      items.push(validationItem('model_ref_role_unknown_ref', loc, msg, role, { refs: [...listed] }));
    } else if (!roles.includes(role)) {
      conflict(`Model '${model.slug}' has no '${role}' frame; allowed roles: ${listText(roles)}`, {
        allowed_roles: [...roles],
      });
    } else if (current !== undefined && current !== role) {
      conflict(`Reference '${key}' already has role '${current}' from ref_slots; give it one role`, {
        assigned_role: current,
      });
    } else if (owner !== undefined && owner !== key) {
      conflict(`Role '${role}' is already given to reference '${owner}'; give each reference its own role`, {
        assigned_to: owner,
      });
    } else {
      owners.set(role, key);
      roleOf.set(key, role);
    }
  }
  return items;
}

function unsupportedItems(
  model: ModelEntry,
  refs: ReferenceInputs,
  ref: string,
  loc: Loc,
  member: RefMember,
): ValidationItem[] {
  const form = refForm(ref);
  if ((refs.accepts as readonly RefForm[]).includes(form)) return [];
  const accepted = refs.accepts.map((a) => ACCEPTED_NAMES[a]).join(' or ');
  const upload = refs.accepts.includes('upload_id')
    ? `: upload the file with POST /v1/media/uploads and pass the returned id in ${member}`
    : '';
  const shown = ref.length > 60 ? `${ref.slice(0, 57)}...` : ref;
  const msg = `Reference '${shown}' is ${FORM_NAMES[form]}; model '${model.slug}' accepts only ${accepted}${upload}`;
  return [validationItem('model_ref_unsupported', loc, msg, ref, { accepts: [...refs.accepts] })];
}

/** What a ref looks like. A slash means a path or URL, never an upload id, which the service makes slash-free. */
function refForm(ref: string): RefForm {
  if (/^https:\/\//i.test(ref)) return 'https_url';
  if (/^http:\/\//i.test(ref)) return 'http_url';
  if (/^data:/i.test(ref)) return 'data_uri';
  if (ref.includes('/') || ref.includes('\\')) return 'path';
  return 'upload_id';
}

/** Roles placed by ref_slots: each known slot's first id, the first slot of a role winning. */
function slotOwners(slots: readonly RefSlot[], input: GenerationInput): Map<Role, string> {
  const owners = new Map<Role, string>();
  const byName = new Map(slots.map((s) => [s.name, s]));
  for (const [name, ids] of Object.entries(input.ref_slots ?? {})) {
    const slot = byName.get(name);
    if (slot !== undefined && ids.length > 0 && !owners.has(slot.role)) owners.set(slot.role, ids[0]);
  }
  return owners;
}
