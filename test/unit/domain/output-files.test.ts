// The rules behind GET /files/*: which output a verified link names or the refusal its client sees (code and message),
// the stored file or a fresh render of a lost one, and how long a browser may cache the answer.
import { describe, expect, it } from 'vitest';
import type { DomainContext, OutputAccess } from '../../../src/domain/context.js';
import { DomainError } from '../../../src/domain/errors.js';
import type { Generation, GenerationStatus, OutputFile } from '../../../src/domain/generation.js';
import { GenerationStore } from '../../../src/domain/generation-store.js';
import type { OutputFileSource, StoredOutput } from '../../../src/domain/output-file-source.js';
import { filePath, outputCacheControl, outputFile, signedOutput } from '../../../src/domain/output-files.js';
import { type Clock, createClock } from '../../../src/infra/clock.js';

const NOW = Date.UTC(2026, 5, 1);

const mp4: OutputFile = { index: 0, fileKey: 'k0', mimeType: 'video/mp4', format: 'mp4', bytes: 10 };
const png: OutputFile = { index: 100, fileKey: 'k100', mimeType: 'image/png', format: 'png', bytes: 20 };

const generation = (id: string, status: GenerationStatus, outputs: OutputFile[] = []): Generation =>
  ({ id, seq: 1, accountId: 'acct_1', status, createdAt: 0, outputs }) as unknown as Generation;

type Parts = Pick<DomainContext, 'generations' | 'outputAccess' | 'outputFiles' | 'clock'>;

function contextWith(
  over: { access?: OutputAccess; files?: Partial<OutputFileSource>; clock?: Clock } = {},
): DomainContext {
  const generations = new GenerationStore();
  generations.add(generation('gen_done', 'completed', [mp4, png]));
  generations.add(generation('gen_busy', 'running', [mp4]));
  const parts: Parts = {
    generations,
    outputAccess: over.access,
    outputFiles: { kept: () => undefined, restore: () => Promise.reject(new Error('no')), ...over.files },
    clock: over.clock ?? createClock({ frozenAt: NOW }),
  };
  return parts as DomainContext;
}

/** The code and message a call refuses with. */
async function refusal(run: () => unknown): Promise<{ code: string; message: string }> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const { code, message } = error as DomainError;
    return { code, message };
  }
  throw new Error('expected a refusal');
}

const NOT_FOUND = {
  code: 'output_not_found',
  message:
    'No such output file. Check the generation id and the file name, or read the generation again for its links.',
};
const EXPIRED = {
  code: 'url_expired',
  message:
    'This signed URL has expired. Read the generation again (GET /v1/media/generations/{id}) for a fresh URL, and copy the file to your own storage.',
};

describe('filePath', () => {
  it('names the generation (escaped) and the output’s index and format', () => {
    expect(filePath('gen_1', 3, 'webm')).toBe('/files/gen_1/3.webm');
    expect(filePath('a/b c', 0, 'png')).toBe('/files/a%2Fb%20c/0.png');
  });
});

describe('signedOutput', () => {
  const ctx = contextWith();

  it('names the completed generation and the output the file name gives', () => {
    expect(signedOutput(ctx, 'ok', 'gen_done', '0.mp4', 0)).toEqual({
      generation: ctx.generations.get('gen_done'),
      output: mp4,
    });
    expect(signedOutput(ctx, 'ok', 'gen_done', '100.png', 0).output).toBe(png);
  });

  it('refuses a link without a signature, with a forged one, or past its expiry, each in its own words', async () => {
    expect(await refusal(() => signedOutput(ctx, 'unsigned', 'gen_done', '0.mp4', 0))).toEqual({
      code: 'url_unsigned',
      message: 'This file URL carries no signature. Read the generation again to get a fresh signed URL.',
    });
    expect(await refusal(() => signedOutput(ctx, 'invalid', 'gen_done', '0.mp4', 0))).toEqual({
      code: 'url_signature_invalid',
      message: 'The signature of this file URL does not match. Use the URL exactly as the API returned it.',
    });
    expect(await refusal(() => signedOutput(ctx, 'expired', 'gen_done', '0.mp4', 0))).toEqual(EXPIRED);
  });

  it('answers not found for an unknown generation, one not completed, or a name that is not one of its outputs', async () => {
    for (const [id, name] of [
      ['gen_none', '0.mp4'],
      ['gen_busy', '0.mp4'],
      ['gen_done', '1.mp4'],
      ['gen_done', '0.png'],
      ['gen_done', '0.MP4'],
      ['gen_done', 'x0.mp4'],
      ['gen_done', '0.mp4.txt'],
      ['gen_done', '0.mp4/'],
      ['gen_done', '.mp4'],
      ['gen_done', '0.'],
      ['gen_done', '0100.png'],
    ] as const)
      expect(await refusal(() => signedOutput(ctx, 'ok', id, name, 0)), `${id}/${name}`).toEqual(NOT_FOUND);
  });

  it('refuses as the output access says: expired, or missing, for the link’s expiry it was given', async () => {
    const asked: [string, number][] = [];
    const access = (answer: 'expired' | 'missing' | undefined): OutputAccess => ({
      signing: () => undefined,
      refusal: (g, expires) => {
        asked.push([g.id, expires]);
        return answer;
      },
      shown: () => {},
    });
    expect(
      await refusal(() => signedOutput(contextWith({ access: access('expired') }), 'ok', 'gen_done', '0.mp4', 77)),
    ).toEqual(EXPIRED);
    expect(
      await refusal(() => signedOutput(contextWith({ access: access('missing') }), 'ok', 'gen_done', '0.mp4', 78)),
    ).toEqual(NOT_FOUND);
    expect(signedOutput(contextWith({ access: access(undefined) }), 'ok', 'gen_done', '0.mp4', 79).output).toBe(mp4);
    expect(asked).toEqual([
      ['gen_done', 77],
      ['gen_done', 78],
      ['gen_done', 79],
    ]);
  });

  it('says expired, not not found, for a link the output access expired even to a generation not completed', async () => {
    const access: OutputAccess = { signing: () => undefined, refusal: () => 'expired', shown: () => {} };
    expect(await refusal(() => signedOutput(contextWith({ access }), 'ok', 'gen_busy', '0.mp4', 0))).toEqual(EXPIRED);
  });
});

describe('outputFile', () => {
  const done = generation('gen_done', 'completed', [mp4]);
  const stored: StoredOutput = { bytes: 10, path: '/tmp/stored.mp4' };

  it('answers the stored file without rendering it again', async () => {
    const ctx = contextWith({
      files: { kept: (o) => (o === mp4 ? stored : undefined), restore: () => Promise.reject(new Error('rendered')) },
    });
    expect(await outputFile(ctx, { generation: done, output: mp4 }, 100)).toBe(stored);
  });

  it('renders a lost file again, kept until the link expires (seconds to emulator ms)', async () => {
    const asked: [string, OutputFile, number][] = [];
    const rendered: StoredOutput = { bytes: 3, data: new Uint8Array([1, 2, 3]) };
    const ctx = contextWith({
      files: {
        restore: async (g, o, until) => {
          asked.push([g.id, o, until]);
          return rendered;
        },
      },
    });
    expect(await outputFile(ctx, { generation: done, output: mp4 }, 1_800_000_000)).toBe(rendered);
    expect(asked).toEqual([['gen_done', mp4, 1_800_000_000_000]]);
  });

  it('answers output_unavailable, a retryable refusal, when the render fails', async () => {
    const ctx = contextWith({ files: { restore: () => Promise.reject(new Error('ffmpeg timed out')) } });
    expect(await refusal(() => outputFile(ctx, { generation: done, output: mp4 }, 100))).toEqual({
      code: 'output_unavailable',
      message:
        'The output file was no longer stored and rendering it again failed. Try again in a moment; if it keeps failing, submit the generation again.',
    });
  });

  it('passes on the refusal of a render whose inputs are gone for good', async () => {
    const gone = new DomainError(
      'output_not_found',
      'The output file is no longer stored and cannot be rendered again: its first frame. Submit the generation again.',
    );
    const ctx = contextWith({ files: { restore: () => Promise.reject(gone) } });
    expect(await refusal(() => outputFile(ctx, { generation: done, output: mp4 }, 100))).toEqual({
      code: 'output_not_found',
      message: gone.message,
    });
  });
});

describe('outputCacheControl', () => {
  /** A clock on real time (never moved) whose reading is `now`. */
  const realClock = (now: number) => createClock({ realNow: () => now });

  it('lets a browser cache a file for the whole seconds left of its link', () => {
    const ctx = contextWith({ clock: realClock(NOW + 250) });
    expect(outputCacheControl(ctx, NOW / 1000 + 3600)).toBe('private, max-age=3599');
    expect(outputCacheControl(ctx, NOW / 1000 + 2)).toBe('private, max-age=1');
  });

  it('stores nothing once the link has less than a second left or has expired', () => {
    const ctx = contextWith({ clock: realClock(NOW + 250) });
    expect(outputCacheControl(ctx, NOW / 1000 + 1)).toBe('no-store');
    expect(outputCacheControl(ctx, NOW / 1000)).toBe('no-store');
    expect(outputCacheControl(ctx, NOW / 1000 - 10)).toBe('no-store');
  });

  it('stores nothing while the emulator clock is frozen or moved away from real time', () => {
    expect(outputCacheControl(contextWith({ clock: createClock({ frozenAt: NOW }) }), NOW / 1000 + 3600)).toBe(
      'no-store',
    );
    const moved = realClock(NOW);
    moved.advanceBy(1000);
    expect(outputCacheControl(contextWith({ clock: moved }), NOW / 1000 + 3600)).toBe('no-store');
  });
});
