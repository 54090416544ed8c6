// Reference inputs of models the shipped catalogue lacks (URL-only, one slot of two files) and edge spellings of refs.
import { describe, it, expect } from 'vitest';
import type { ModelEntry, ReferenceInputs } from '../../../src/domain/catalogue-schema.js';
import type { GenerationInput } from '../../../src/domain/generation-input.js';
import { checkModelRules } from '../../../src/domain/model-rules.js';
import { assignFrames } from '../../../src/domain/reference-rules.js';
import { fixtureModel } from '../../helpers/catalogue.js';

const A = fixtureModel('motion-lite-v1');
const B = fixtureModel('keyframe-pro-v2');
const UPLOAD = 'upload the file with POST /v1/media/uploads and pass the returned id';

/** Model A with other reference inputs, as an operator's catalogue may declare them. */
function withRefs(change: Partial<ReferenceInputs>): ModelEntry {
  const refs = A.reference_inputs;
  if (refs === null) throw new Error('Model A takes references');
  return { ...A, reference_inputs: { ...refs, ...change } };
}

const URL_ONLY = withRefs({ accepts: ['https_url', 'data_uri'] });
const input = (m: ModelEntry, extra: Partial<GenerationInput> = {}): GenerationInput => ({
  model_slug: m.slug,
  prompt: 'a red fox running through snow',
  ...extra,
});

describe('refs a model does not accept', () => {
  it('lists every accepted form, and points at no upload when uploads are not accepted', () => {
    expect(checkModelRules(URL_ONLY, input(URL_ONLY, { refs: ['upl_1'] }))).toStrictEqual([
      {
        type: 'model_ref_unsupported',
        loc: ['body', 'refs', 0],
        msg:
          "Reference 'upl_1' is an upload identifier; model 'motion-lite-v1' accepts only public HTTPS image URLs " +
          'or data:image/png|jpeg|webp;base64 URIs',
        input: 'upl_1',
        ctx: { accepts: ['https_url', 'data_uri'] },
      },
    ]);
  });

  it('finds nothing to refuse in a request without refs', () => {
    expect(checkModelRules(URL_ONLY, input(URL_ONLY))).toStrictEqual([]);
  });

  it('quotes a reference of 60 characters whole', () => {
    const ref = `https://example.com/${'a'.repeat(36)}.png`;
    expect(ref).toHaveLength(60);
    const [item] = checkModelRules(A, input(A, { refs: [ref] }));
    expect(item?.msg).toBe(
      `Reference '${ref}' is an HTTPS URL; model 'motion-lite-v1' accepts only upload identifiers: ${UPLOAD} in refs`,
    );
  });

  it.each([
    ['./https://example.com/a.png', 'a file path'],
    ['./http://example.com/a.png', 'a file path'],
  ])('names %s by how it starts: %s', (ref, form) => {
    const [item] = checkModelRules(A, input(A, { refs: [ref] }));
    expect(item?.msg).toBe(
      `Reference '${ref}' is ${form}; model 'motion-lite-v1' accepts only upload identifiers: ${UPLOAD} in refs`,
    );
  });

  it('takes an id with "data:" after its start for an upload identifier', () => {
    expect(checkModelRules(A, input(A, { refs: ['upl_data:1'] }))).toStrictEqual([]);
  });
});

describe('a model with references but no slots', () => {
  it('says it allows no slot and no role', () => {
    const noSlots = withRefs({ slots: [] });
    const extra = { refs: ['upl_1'], ref_slots: { start_image: ['upl_1'] }, ref_roles: { upl_1: 'first' as const } };
    expect(checkModelRules(noSlots, input(noSlots, extra))).toStrictEqual([
      {
        type: 'model_ref_slot_unknown',
        loc: ['body', 'ref_slots', 'start_image'],
        msg: "Unknown reference slot 'start_image' for model 'motion-lite-v1'; allowed slots: none",
        input: ['upl_1'],
        ctx: { allowed_slots: [] },
      },
      {
        type: 'model_ref_role_conflict',
        loc: ['body', 'ref_roles', 'upl_1'],
        msg: "Model 'motion-lite-v1' has no 'first' frame; allowed roles: none",
        input: 'first',
        ctx: { role: 'first', allowed_roles: [] },
      },
    ]);
  });
});

describe('ref_roles without refs', () => {
  it('names the refs it may use: none', () => {
    expect(checkModelRules(B, input(B, { ref_roles: { upl_1: 'first' } }))).toStrictEqual([
      {
        type: 'model_ref_role_unknown_ref',
        loc: ['body', 'ref_roles', 'upl_1'],
        msg: "Reference 'upl_1' in ref_roles is not one of refs; use ids listed in refs as keys of ref_roles",
        input: 'first',
        ctx: { refs: [] },
      },
    ]);
  });
});

describe('assignFrames', () => {
  it('lets an empty slot place no frame', () => {
    const extra = { refs: ['a'], ref_slots: { first_frame: [] } };
    expect(checkModelRules(B, input(B, extra))).toStrictEqual([]);
    expect(assignFrames(B, input(B, extra))).toStrictEqual({ first: 'a' });
  });

  it('lets a role pick the ref of a model with one slot and two files', () => {
    const oneSlot = withRefs({ max_files: 2 });
    const extra = { refs: ['a', 'b'], ref_roles: { b: 'first' as const } };
    expect(checkModelRules(oneSlot, input(oneSlot, extra))).toStrictEqual([]);
    expect(assignFrames(oneSlot, input(oneSlot, extra))).toStrictEqual({ first: 'b' });
  });

  it('gives a role to the first slot of that role', () => {
    const twoFirsts = withRefs({
      max_files: 2,
      slots: [
        { name: 'main', role: 'first' },
        { name: 'spare', role: 'first' },
      ],
    });
    const extra = { ref_slots: { main: ['x'], spare: ['y'] } };
    expect(checkModelRules(twoFirsts, input(twoFirsts, extra))).toStrictEqual([]);
    expect(assignFrames(twoFirsts, input(twoFirsts, extra))).toStrictEqual({ first: 'x' });
  });
});
