// The bytes behind signed links: the stored file, or the same render again from the generation once a file is lost.
import { DomainError } from '../domain/errors.js';
import type { Generation } from '../domain/generation.js';
import type { OutputFileSource } from '../domain/output-file-source.js';
import { isMissingBlob } from '../infra/upload-blobs.js';
import { type RenderPortDeps, renderJobs } from './render-port.js';

/** A restart can lose every file at once: past this many distinct lost files waiting, a request answers 503. */
export const RESTORES_WAITING_CAP = 256;

const IMAGE_GONE = 'a reference image it was made from is no longer stored';

/** A render from the generation's inputs would not draw the same pixels: a frame's upload or the model is gone. */
function lostInputs(deps: RenderPortDeps, g: Generation): string | undefined {
  if (!deps.catalogue.get(g.modelSlug)) return `its model ${g.modelSlug} is no longer in the catalogue`;
  const frames = [g.frames.first, g.frames.last].filter((id): id is string => id !== undefined);
  if (frames.some((id) => !deps.uploads.get(id))) return IMAGE_GONE;
  return undefined;
}

/** An upload's bytes missing from the upload store (an import without them, a deleted file): no retry brings them back. */
class UploadBytesGone extends Error {}

const isUploadBytesGone = (error: unknown): boolean =>
  error instanceof UploadBytesGone ||
  (error instanceof Error && error.cause !== undefined && isUploadBytesGone(error.cause));

const goneForGood = (lost: string) =>
  new DomainError(
    'output_not_found',
    `The output file is no longer stored and cannot be rendered again: ${lost}. Submit the generation again.`,
  );

/**
 * Output files by their store key, rendered again from the generation when the store lost them. The job is the one
 * the first render ran, so its content key, and so its pixels, are the same; the renderer shares one render among
 * concurrent requests for it and runs it in its bounded queue.
 */
export function createOutputFileSource(deps: RenderPortDeps): OutputFileSource {
  const restoring: RenderPortDeps = {
    ...deps,
    uploadBytes: (id) =>
      deps.uploadBytes(id).catch((error: unknown) => {
        throw isMissingBlob(error) ? new UploadBytesGone(`upload ${id} has no bytes stored`) : error;
      }),
  };
  const cap = deps.maxRestoresWaiting ?? RESTORES_WAITING_CAP;
  // Requests waiting per lost file: one more for a file already rendering costs no render, so only new files count.
  const waiting = new Map<string, number>();
  const leave = (key: string): void => {
    const left = (waiting.get(key) ?? 1) - 1;
    if (left > 0) waiting.set(key, left);
    else waiting.delete(key);
  };
  return {
    kept: (output) => deps.currentRenderer()?.get(output.fileKey),
    async restore(g, output, retainUntil) {
      const lost = lostInputs(deps, g);
      if (lost) throw goneForGood(lost);
      const key = output.fileKey;
      // Counted before the first await, so a burst cannot all pass a check made before any of it was counted.
      if (!waiting.has(key) && waiting.size >= cap)
        throw new DomainError(
          'output_unavailable',
          `${waiting.size} lost output files are being rendered again, the most the emulator queues at once. Try again in a moment.`,
        );
      waiting.set(key, (waiting.get(key) ?? 0) + 1);
      try {
        const renderer = await deps.renderer();
        const file = await renderer.render(renderJobs(restoring, g).jobFor(output.index), retainUntil);
        // Once per render: the requests that shared it, or found it stored, say nothing.
        if (!file.cacheHit)
          deps.log?.(
            file.key === output.fileKey
              ? `output ${output.index} of ${g.id} was no longer stored: rendered again`
              : `output ${output.index} of ${g.id} was no longer stored: rendered again by a different renderer (mode, ffmpeg or font changed), so its bytes may differ from the first render`,
          );
        return file;
      } catch (error) {
        deps.log?.(`rendering output ${output.index} of ${g.id} again failed: ${(error as Error).message}`);
        throw isUploadBytesGone(error) ? goneForGood(IMAGE_GONE) : error;
      } finally {
        leave(key);
      }
    },
  };
}
