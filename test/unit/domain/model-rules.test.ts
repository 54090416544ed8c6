// Model-level request rules: the whole 422 item for every rule, the order of items, and frame assignment.
import { describe, it, expect } from 'vitest';
import type { ModelEntry } from '../../../src/domain/catalogue-schema.js';
import { fixtureModel } from '../../helpers/catalogue.js';
import type { GenerationInput } from '../../../src/domain/generation-input.js';
import { checkModelRules } from '../../../src/domain/model-rules.js';
import { assignFrames, refIds } from '../../../src/domain/reference-rules.js';
import type { ValidationItem } from '../../../src/domain/validation-item.js';

const model = fixtureModel;
const A = model('motion-lite-v1');
const B = model('keyframe-pro-v2');
const IMAGE = model('still-sketch-v1');

const input = (m: ModelEntry, extra: Partial<GenerationInput> = {}): GenerationInput => ({
  model_slug: m.slug,
  prompt: 'a red fox running through snow',
  ...extra,
});

const A_GROUPS = ['duration', 'quality', 'size', 'audio', 'count'];
const A_DURATIONS = ['4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'];
const UPLOAD = 'upload the file with POST /v1/media/uploads and pass the returned id';
const LONG = 'a'.repeat(2501);
const DATA_URI = `data:image/png;base64,${'A'.repeat(80)}`;

describe('checkModelRules accepts', () => {
  const fine: [string, ModelEntry, Partial<GenerationInput>][] = [
    ['a bare prompt', A, {}],
    [
      'every group at an allowed value',
      A,
      { params: { duration: '15', quality: '720p', size: '21:9', audio: 'on', count: '4' } },
    ],
    ['one upload id for Model A', A, { refs: ['upl_abc123'] }],
    ['the start image by slot', A, { ref_slots: { start_image: ['upl_abc123'] } }],
    ['two upload ids for Model B', B, { refs: ['upl_1', 'upl_2'] }],
    ['swapped roles for Model B', B, { refs: ['upl_1', 'upl_2'], ref_roles: { upl_1: 'last', upl_2: 'first' } }],
    ['a single last frame for Model B', B, { refs: ['upl_1'], ref_roles: { upl_1: 'last' } }],
    ['both frames by slot', B, { ref_slots: { first_frame: ['upl_1'], last_frame: ['upl_2'] } }],
    [
      'the same id in refs and a slot',
      B,
      { refs: ['upl_1'], ref_slots: { first_frame: ['upl_1'] }, ref_roles: { upl_1: 'first' } },
    ],
    ['a prompt of 2500 code points made of emoji (5000 UTF-16 units)', A, { prompt: '😀'.repeat(2500) }],
    ['empty ref members on a model without references', IMAGE, { refs: [], ref_slots: {}, ref_roles: {} }],
  ];
  it.each(fine)('%s', (_name, m, extra) => {
    expect(checkModelRules(m, input(m, extra))).toEqual([]);
  });
});

describe('checkModelRules reports', () => {
  const cases: [string, ModelEntry, Partial<GenerationInput>, ValidationItem[]][] = [
    [
      'an unknown option group',
      A,
      { params: { foo: 'bar' } },
      [
        {
          type: 'model_option_unknown',
          loc: ['body', 'params', 'foo'],
          msg: "Unknown option group 'foo' for model 'motion-lite-v1'; allowed groups: duration, quality, size, audio, count",
          input: 'bar',
          ctx: { allowed_groups: A_GROUPS },
        },
      ],
    ],
    [
      'a group Model B does not have',
      B,
      { params: { quality: '720p' } },
      [
        {
          type: 'model_option_unknown',
          loc: ['body', 'params', 'quality'],
          msg: "Unknown option group 'quality' for model 'keyframe-pro-v2'; allowed groups: duration, size, audio, count",
          input: '720p',
          ctx: { allowed_groups: ['duration', 'size', 'audio', 'count'] },
        },
      ],
    ],
    [
      'a value not allowed',
      A,
      { params: { duration: '3' } },
      [
        {
          type: 'model_option_value',
          loc: ['body', 'params', 'duration'],
          msg: "Value '3' is not allowed for option 'duration' of model 'motion-lite-v1'; allowed values: 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
          input: '3',
          ctx: { allowed_values: A_DURATIONS },
        },
      ],
    ],
    [
      'a value in the wrong case',
      B,
      { params: { audio: 'ON' } },
      [
        {
          type: 'model_option_value',
          loc: ['body', 'params', 'audio'],
          msg: "Value 'ON' is not allowed for option 'audio' of model 'keyframe-pro-v2'; allowed values: off, on",
          input: 'ON',
          ctx: { allowed_values: ['off', 'on'] },
        },
      ],
    ],
    [
      'a prompt over the limit',
      A,
      { prompt: LONG },
      [
        {
          type: 'model_prompt_too_long',
          loc: ['body', 'prompt'],
          msg: "Prompt should have at most 2500 characters for model 'motion-lite-v1', not 2501; shorten the prompt",
          input: LONG,
          ctx: { max_length: 2500 },
        },
      ],
    ],
    [
      'a prompt over the limit in code points',
      B,
      { prompt: '😀'.repeat(2501) },
      [
        {
          type: 'model_prompt_too_long',
          loc: ['body', 'prompt'],
          msg: "Prompt should have at most 2500 characters for model 'keyframe-pro-v2', not 2501; shorten the prompt",
          input: '😀'.repeat(2501),
          ctx: { max_length: 2500 },
        },
      ],
    ],
    [
      'an empty prompt',
      A,
      { prompt: '' },
      [
        {
          type: 'model_prompt_missing',
          loc: ['body', 'prompt'],
          msg: "Model 'motion-lite-v1' requires a prompt; describe what to generate in 'prompt'",
          input: '',
        },
      ],
    ],
    [
      'a whitespace prompt',
      B,
      { prompt: ' \n\t\u3000' },
      [
        {
          type: 'model_prompt_missing',
          loc: ['body', 'prompt'],
          msg: "Model 'keyframe-pro-v2' requires a prompt; describe what to generate in 'prompt'",
          input: ' \n\t\u3000',
        },
      ],
    ],
    [
      'refs sent to a model without references',
      IMAGE,
      { refs: ['upl_1'] },
      [
        {
          type: 'model_refs_not_supported',
          loc: ['body', 'refs'],
          msg: "Model 'still-sketch-v1' takes no reference inputs; remove 'refs' from the request",
          input: ['upl_1'],
          ctx: { max_files: 0 },
        },
      ],
    ],
    [
      'every ref member sent to a model without references',
      IMAGE,
      { refs: ['upl_1'], ref_slots: { start_image: ['upl_2'] }, ref_roles: { upl_1: 'first' } },
      [
        {
          type: 'model_refs_not_supported',
          loc: ['body', 'refs'],
          msg: "Model 'still-sketch-v1' takes no reference inputs; remove 'refs' from the request",
          input: ['upl_1'],
          ctx: { max_files: 0 },
        },
        {
          type: 'model_refs_not_supported',
          loc: ['body', 'ref_slots'],
          msg: "Model 'still-sketch-v1' takes no reference inputs; remove 'ref_slots' from the request",
          input: { start_image: ['upl_2'] },
          ctx: { max_files: 0 },
        },
        {
          type: 'model_refs_not_supported',
          loc: ['body', 'ref_roles'],
          msg: "Model 'still-sketch-v1' takes no reference inputs; remove 'ref_roles' from the request",
          input: { upl_1: 'first' },
          ctx: { max_files: 0 },
        },
      ],
    ],
    [
      'two refs for Model A',
      A,
      { refs: ['upl_1', 'upl_2'] },
      [
        {
          type: 'model_refs_too_many',
          loc: ['body', 'refs'],
          msg: "Model 'motion-lite-v1' accepts at most 1 reference file, not 2; remove 1",
          input: ['upl_1', 'upl_2'],
          ctx: { max_files: 1 },
        },
      ],
    ],
    [
      'the same ref three times for Model B: repeated ids are items too (spec 8, "refs items")',
      B,
      { refs: ['upl_1', 'upl_1', 'upl_1'] },
      [
        {
          type: 'model_refs_too_many',
          loc: ['body', 'refs'],
          msg: "Model 'keyframe-pro-v2' accepts at most 2 reference files, not 3; remove 1",
          input: ['upl_1', 'upl_1', 'upl_1'],
          ctx: { max_files: 2 },
        },
      ],
    ],
    [
      'three refs for Model B',
      B,
      { refs: ['upl_1', 'upl_2', 'upl_3'] },
      [
        {
          type: 'model_refs_too_many',
          loc: ['body', 'refs'],
          msg: "Model 'keyframe-pro-v2' accepts at most 2 reference files, not 3; remove 1",
          input: ['upl_1', 'upl_2', 'upl_3'],
          ctx: { max_files: 2 },
        },
      ],
    ],
    [
      'a ref plus a different slot ref for Model A',
      A,
      { refs: ['upl_1'], ref_slots: { start_image: ['upl_2'] } },
      [
        {
          type: 'model_refs_too_many',
          loc: ['body', 'refs'],
          msg: "Model 'motion-lite-v1' accepts at most 1 reference file, not 2; remove 1",
          input: ['upl_1'],
          ctx: { max_files: 1 },
        },
      ],
    ],
    [
      'too many refs in slots only',
      A,
      { ref_slots: { start_image: ['upl_1', 'upl_2'] } },
      [
        {
          type: 'model_refs_too_many',
          loc: ['body', 'ref_slots'],
          msg: "Model 'motion-lite-v1' accepts at most 1 reference file, not 2; remove 1",
          input: { start_image: ['upl_1', 'upl_2'] },
          ctx: { max_files: 1 },
        },
        {
          type: 'model_ref_slot_too_many',
          loc: ['body', 'ref_slots', 'start_image'],
          msg: "Slot 'start_image' of model 'motion-lite-v1' takes one reference, not 2; keep one id",
          input: ['upl_1', 'upl_2'],
          ctx: { max_items: 1 },
        },
      ],
    ],
    [
      'an HTTPS URL',
      A,
      { refs: ['https://example.com/cat.png'] },
      [
        {
          type: 'model_ref_unsupported',
          loc: ['body', 'refs', 0],
          msg: `Reference 'https://example.com/cat.png' is an HTTPS URL; model 'motion-lite-v1' accepts only upload identifiers: ${UPLOAD} in refs`,
          input: 'https://example.com/cat.png',
          ctx: { accepts: ['upload_id'] },
        },
      ],
    ],
    [
      'an HTTP URL as the second ref',
      B,
      { refs: ['upl_1', 'HTTP://example.com/cat.png'] },
      [
        {
          type: 'model_ref_unsupported',
          loc: ['body', 'refs', 1],
          msg: `Reference 'HTTP://example.com/cat.png' is an HTTP URL; model 'keyframe-pro-v2' accepts only upload identifiers: ${UPLOAD} in refs`,
          input: 'HTTP://example.com/cat.png',
          ctx: { accepts: ['upload_id'] },
        },
      ],
    ],
    [
      'a data URI, shortened in the message only',
      A,
      { refs: [DATA_URI] },
      [
        {
          type: 'model_ref_unsupported',
          loc: ['body', 'refs', 0],
          msg: `Reference '${DATA_URI.slice(0, 57)}...' is a data: URI; model 'motion-lite-v1' accepts only upload identifiers: ${UPLOAD} in refs`,
          input: DATA_URI,
          ctx: { accepts: ['upload_id'] },
        },
      ],
    ],
    [
      'a file path in a slot',
      B,
      { ref_slots: { last_frame: ['images/end.png'] } },
      [
        {
          type: 'model_ref_unsupported',
          loc: ['body', 'ref_slots', 'last_frame', 0],
          msg: `Reference 'images/end.png' is a file path; model 'keyframe-pro-v2' accepts only upload identifiers: ${UPLOAD} in ref_slots`,
          input: 'images/end.png',
          ctx: { accepts: ['upload_id'] },
        },
      ],
    ],
    [
      'a Windows path',
      A,
      { refs: ['C:\\images\\cat.png'] },
      [
        {
          type: 'model_ref_unsupported',
          loc: ['body', 'refs', 0],
          msg: `Reference 'C:\\images\\cat.png' is a file path; model 'motion-lite-v1' accepts only upload identifiers: ${UPLOAD} in refs`,
          input: 'C:\\images\\cat.png',
          ctx: { accepts: ['upload_id'] },
        },
      ],
    ],
    [
      'an unknown slot',
      B,
      { ref_slots: { start_image: ['upl_1'] } },
      [
        {
          type: 'model_ref_slot_unknown',
          loc: ['body', 'ref_slots', 'start_image'],
          msg: "Unknown reference slot 'start_image' for model 'keyframe-pro-v2'; allowed slots: first_frame, last_frame",
          input: ['upl_1'],
          ctx: { allowed_slots: ['first_frame', 'last_frame'] },
        },
      ],
    ],
    [
      'two ids in one slot',
      B,
      { ref_slots: { first_frame: ['upl_1', 'upl_2'] } },
      [
        {
          type: 'model_ref_slot_too_many',
          loc: ['body', 'ref_slots', 'first_frame'],
          msg: "Slot 'first_frame' of model 'keyframe-pro-v2' takes one reference, not 2; keep one id",
          input: ['upl_1', 'upl_2'],
          ctx: { max_items: 1 },
        },
      ],
    ],
    [
      'a role for a ref that is not in refs',
      B,
      { refs: ['upl_1'], ref_roles: { upl_9: 'first' } },
      [
        {
          type: 'model_ref_role_unknown_ref',
          loc: ['body', 'ref_roles', 'upl_9'],
          msg: "Reference 'upl_9' in ref_roles is not one of refs; use ids listed in refs as keys of ref_roles",
          input: 'first',
          ctx: { refs: ['upl_1'] },
        },
      ],
    ],
    [
      'two refs with one role',
      B,
      { refs: ['upl_1', 'upl_2'], ref_roles: { upl_1: 'first', upl_2: 'first' } },
      [
        {
          type: 'model_ref_role_conflict',
          loc: ['body', 'ref_roles', 'upl_2'],
          msg: "Role 'first' is already given to reference 'upl_1'; give each reference its own role",
          input: 'first',
          ctx: { role: 'first', assigned_to: 'upl_1' },
        },
      ],
    ],
    [
      'a last frame for Model A, which has only a start image',
      A,
      { refs: ['upl_1'], ref_roles: { upl_1: 'last' } },
      [
        {
          type: 'model_ref_role_conflict',
          loc: ['body', 'ref_roles', 'upl_1'],
          msg: "Model 'motion-lite-v1' has no 'last' frame; allowed roles: first",
          input: 'last',
          ctx: { role: 'last', allowed_roles: ['first'] },
        },
      ],
    ],
    [
      'a role already placed by a slot',
      B,
      { refs: ['upl_2'], ref_slots: { first_frame: ['upl_1'] }, ref_roles: { upl_2: 'first' } },
      [
        {
          type: 'model_ref_role_conflict',
          loc: ['body', 'ref_roles', 'upl_2'],
          msg: "Role 'first' is already given to reference 'upl_1'; give each reference its own role",
          input: 'first',
          ctx: { role: 'first', assigned_to: 'upl_1' },
        },
      ],
    ],
    [
      'a role that contradicts the slot of the same ref',
      B,
      { refs: ['upl_1'], ref_slots: { first_frame: ['upl_1'] }, ref_roles: { upl_1: 'last' } },
      [
        {
          type: 'model_ref_role_conflict',
          loc: ['body', 'ref_roles', 'upl_1'],
          msg: "Reference 'upl_1' already has role 'first' from ref_slots; give it one role",
          input: 'last',
          ctx: { role: 'last', assigned_role: 'first' },
        },
      ],
    ],
  ];

  it.each(cases)('%s', (_name, m, extra, expected) => {
    expect(checkModelRules(m, input(m, extra))).toEqual(expected);
  });

  it('lists params in request order, then prompt, refs, ref_slots and ref_roles', () => {
    const items = checkModelRules(
      B,
      input(B, {
        params: { size: '4:3', zoom: '2', duration: '99' },
        prompt: '   ',
        refs: ['upl_1', 'https://x.test/a.png', 'upl_3'],
        ref_slots: { middle: ['upl_4'] },
        ref_roles: { upl_1: 'first', upl_3: 'first', nope: 'last' },
      }),
    );
    expect(items.map((i) => [i.type, i.loc])).toEqual([
      ['model_option_value', ['body', 'params', 'size']],
      ['model_option_unknown', ['body', 'params', 'zoom']],
      ['model_option_value', ['body', 'params', 'duration']],
      ['model_prompt_missing', ['body', 'prompt']],
      ['model_refs_too_many', ['body', 'refs']],
      ['model_ref_unsupported', ['body', 'refs', 1]],
      ['model_ref_slot_unknown', ['body', 'ref_slots', 'middle']],
      ['model_ref_role_conflict', ['body', 'ref_roles', 'upl_3']],
      ['model_ref_role_unknown_ref', ['body', 'ref_roles', 'nope']],
    ]);
  });

  it('writes item members in Pydantic order and leaves the request and catalogue untouched', () => {
    const request = input(A, { params: { duration: '3' }, refs: ['a/b'] });
    const before = structuredClone(request);
    const items = checkModelRules(A, request);
    expect(Object.keys(items[0])).toEqual(['type', 'loc', 'msg', 'input', 'ctx']);
    (items[0].ctx!.allowed_values as string[]).push('99');
    expect(request).toEqual(before);
    expect(A.option_groups[0].values).toEqual(A_DURATIONS);
  });
});

describe('assignFrames', () => {
  const cases: [string, ModelEntry, Partial<GenerationInput>, object][] = [
    ['Model A: the single ref is the start image', A, { refs: ['a'] }, { first: 'a' }],
    ['Model A: the start image by slot', A, { ref_slots: { start_image: ['a'] } }, { first: 'a' }],
    ['Model A: no refs, no frames', A, {}, {}],
    ['Model B: order gives first then last', B, { refs: ['a', 'b'] }, { first: 'a', last: 'b' }],
    ['Model B: swapping the order swaps the frames', B, { refs: ['b', 'a'] }, { first: 'b', last: 'a' }],
    ['Model B: one ref is the first frame', B, { refs: ['a'] }, { first: 'a' }],
    [
      'Model B: roles swap the frames',
      B,
      { refs: ['a', 'b'], ref_roles: { a: 'last', b: 'first' } },
      { first: 'b', last: 'a' },
    ],
    [
      'Model B: one role places one ref, order the other',
      B,
      { refs: ['a', 'b'], ref_roles: { b: 'first' } },
      { first: 'b', last: 'a' },
    ],
    [
      'Model B: a single ref with role last is only the last frame',
      B,
      { refs: ['a'], ref_roles: { a: 'last' } },
      { last: 'a' },
    ],
    [
      'Model B: slots assign by their role',
      B,
      { ref_slots: { first_frame: ['x'], last_frame: ['y'] } },
      { first: 'x', last: 'y' },
    ],
    [
      'Model B: slot order does not matter',
      B,
      { ref_slots: { last_frame: ['y'], first_frame: ['x'] } },
      { first: 'x', last: 'y' },
    ],
    [
      'Model B: a last-frame slot leaves first to refs',
      B,
      { refs: ['x'], ref_slots: { last_frame: ['y'] } },
      { first: 'x', last: 'y' },
    ],
    [
      'Model B: a slot wins over a role',
      B,
      { refs: ['y'], ref_slots: { first_frame: ['x'] }, ref_roles: { y: 'first' } },
      { first: 'x', last: 'y' },
    ],
    ['Model B: a repeated ref takes one frame', B, { refs: ['a', 'a'] }, { first: 'a' }],
    ['a model without references has no frames', IMAGE, { refs: ['a'] }, {}],
  ];
  it.each(cases)('%s', (_name, m, extra, expected) => {
    expect(assignFrames(m, input(m, extra))).toStrictEqual(expected);
  });
});

describe('refIds', () => {
  it('lists refs then slot ids, each once, in order', () => {
    expect(
      refIds(input(B, { refs: ['a', 'b', 'a'], ref_slots: { first_frame: ['c'], last_frame: ['a', 'd'] } })),
    ).toEqual(['a', 'b', 'c', 'd']);
    expect(refIds(input(B))).toEqual([]);
  });
});
