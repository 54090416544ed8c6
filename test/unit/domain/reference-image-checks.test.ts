// checkReferenceImage's refusals, each with the code and message a client reads: size, format and pixel limits.
import { describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../../src/domain/catalogue-schema.js';
import { DomainError, ValidationFailure } from '../../../src/domain/errors.js';
import { checkReferenceImage, type SniffedImage } from '../../../src/domain/uploads.js';
import { fixtureModel } from '../../helpers/catalogue.js';

/** motion-lite-v1 as the shipped catalogue has it: png, jpeg and webp, 10 MiB, 64x64 to 4096x4096. */
const shipped = () => fixtureModel('motion-lite-v1');
type Rules = NonNullable<ModelEntry['reference_inputs']>;

/** The shipped model with other reference rules, as a catalogue file of the user's own may give them. */
function withRules(change: (rules: Rules) => Rules): ModelEntry {
  const model = shipped();
  return { ...model, reference_inputs: change(model.reference_inputs!) };
}

const image = (format: string, width = 640, height = 480): SniffedImage => ({ format, width, height });

/** What checkReferenceImage threw (it must throw). */
function refusal(model: ModelEntry, size: number, sniffed: SniffedImage | undefined): unknown {
  try {
    checkReferenceImage(model, size, sniffed, undefined);
  } catch (error) {
    return error;
  }
  throw new Error('checkReferenceImage accepted the file');
}

describe('checkReferenceImage', () => {
  it('accepts a file of exactly the model’s byte limit and refuses one byte more as upload_too_large', () => {
    const model = shipped();
    const limit = model.reference_inputs!.max_bytes;
    expect(checkReferenceImage(model, limit, image('png'), undefined)).toBe('png');
    const error = refusal(model, limit + 1, image('png'));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'upload_too_large',
      message: `The file has ${limit + 1} bytes; model 'motion-lite-v1' accepts at most ${limit}. Send a smaller image.`,
    });
  });

  it('refuses the byte count before looking at the content', () => {
    const error = refusal(shipped(), shipped().reference_inputs!.max_bytes + 1, undefined);
    expect(error).toMatchObject({ code: 'upload_too_large' });
  });

  it('names the sniffed type when the file is an image of a type no model takes', () => {
    const error = refusal(shipped(), 100, image('gif'));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'unsupported_media_type',
      message: "The file is gif; model 'motion-lite-v1' accepts png, jpeg, webp. Convert the image first.",
    });
  });

  it('refuses a supported type the model does not take, listing the types it does', () => {
    const model = withRules((rules) => ({ ...rules, formats: ['png', 'webp'] }));
    const error = refusal(model, 100, image('jpg'));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'unsupported_media_type',
      message: "The file is jpeg; model 'motion-lite-v1' accepts png, webp. Convert the image first.",
    });
    expect(checkReferenceImage(model, 100, image('webp'), undefined)).toBe('webp');
  });

  it('takes a JPEG under the name the sniffer gives it (jpg) as jpeg', () => {
    expect(checkReferenceImage(shipped(), 100, image('jpg'), undefined)).toBe('jpeg');
  });

  it('refuses an image wide enough but too short', () => {
    const error = refusal(shipped(), 100, image('png', 640, 63));
    expect(error).toBeInstanceOf(ValidationFailure);
    expect((error as ValidationFailure).items).toEqual([
      expect.objectContaining({
        type: 'image_dimensions',
        loc: ['body', 'file'],
        msg: "Image is 640x63; model 'motion-lite-v1' accepts from 64x64 to 4096x4096 pixels",
        input: { width: 640, height: 63 },
      }),
    ]);
    expect(checkReferenceImage(shipped(), 100, image('png', 640, 64), undefined)).toBe('png');
  });

  it('writes an absent maximum as ∞ in the dimensions message', () => {
    const model = withRules(({ max_width: _w, max_height: _h, ...rules }) => rules);
    const error = refusal(model, 100, image('png', 32, 32));
    expect(error).toBeInstanceOf(ValidationFailure);
    expect((error as ValidationFailure).items[0]).toMatchObject({
      type: 'image_dimensions',
      msg: "Image is 32x32; model 'motion-lite-v1' accepts from 64x64 to ∞x∞ pixels",
    });
    expect(checkReferenceImage(model, 100, image('png', 100_000, 100_000), undefined)).toBe('png');
  });
});
