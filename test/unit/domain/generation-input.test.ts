// Unit tests of the request as the domain reads it: every member sent is kept, a JSON null means "not sent".
import { describe, expect, it } from 'vitest';
import { toGenerationInput } from '../../../src/domain/generation-input.js';

describe('toGenerationInput', () => {
  it('keeps every optional member that was sent', () => {
    const body = {
      model_slug: 'tone-music-v1',
      prompt: 'a calm tune',
      params: { duration: '10' },
      texts: { lyrics: 'la la la' },
      refs: ['upl_1'],
      ref_slots: { start_image: ['upl_1'] },
      ref_roles: { upl_1: 'first' as const },
    };
    expect(toGenerationInput(body)).toStrictEqual(body);
  });

  it('leaves out the members sent as null', () => {
    const input = toGenerationInput({
      model_slug: 'tone-music-v1',
      prompt: 'a calm tune',
      params: null,
      texts: null,
      refs: null,
      ref_slots: null,
      ref_roles: null,
    });
    expect(input).toStrictEqual({ model_slug: 'tone-music-v1', prompt: 'a calm tune' });
  });
});
