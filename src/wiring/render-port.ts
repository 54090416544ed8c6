// Adapts the renderer to the lifecycle: one generation in, its output files out (one render per output index).
import { createHash } from 'node:crypto';
import type { Catalogue } from '../domain/catalogue.js';
import type { Generation, OutputFile } from '../domain/generation.js';
import type { RenderPort } from '../domain/lifecycle.js';
import { mediaSpecFor } from '../domain/media-spec.js';
import type { Upload, UploadStore } from '../domain/uploads.js';
import type { ReferenceImage, Renderer } from '../infra/renderer.js';

export interface RenderPortDeps {
  renderer: () => Promise<Renderer>;
  catalogue: Catalogue;
  uploads: UploadStore;
  /** `request` draws a fingerprint of the inputs instead of the generation id, so identical requests share renders. */
  outputLabel: 'generation' | 'request';
  /** Until when a fresh file must survive eviction: its first signed URL is handed out only when the client polls. */
  retainUntil: () => number;
}

const image = (upload: Upload | undefined): ReferenceImage | undefined =>
  upload && { bytes: upload.data, format: upload.format, width: upload.width, height: upload.height };

function fingerprint(g: Generation, first?: Upload, last?: Upload): string {
  const hash = createHash('sha256').update(
    JSON.stringify([g.modelSlug, g.prompt, g.resolvedParams, first?.sha256 ?? null, last?.sha256 ?? null]),
  );
  return `req ${hash.digest('hex').slice(0, 12)}`;
}

export function createRenderPort(deps: RenderPortDeps): RenderPort {
  return async (g) => {
    const renderer = await deps.renderer();
    const model = deps.catalogue.get(g.modelSlug);
    if (!model) throw new Error(`model ${g.modelSlug} left the catalogue`);
    const spec = mediaSpecFor(model, g.resolvedParams);
    const first = g.frames.first ? deps.uploads.get(g.frames.first) : undefined;
    const last = g.frames.last ? deps.uploads.get(g.frames.last) : undefined;
    const identityLabel = deps.outputLabel === 'generation' ? g.id : fingerprint(g, first, last);
    const indexes = Array.from({ length: spec.count }, (_, i) => i);
    const files = await Promise.all(
      indexes.map((index) =>
        renderer.render({
          generationId: g.id,
          identityLabel,
          modelSlug: g.modelSlug,
          kind: g.kind,
          prompt: g.prompt,
          params: g.resolvedParams,
          spec,
          index,
          firstFrame: image(first),
          lastFrame: image(last),
        }),
      ),
    );
    for (const file of files) renderer.touch(file.key, deps.retainUntil());
    return files.map(
      (file, index): OutputFile => ({
        index,
        fileKey: file.key,
        mimeType: file.mimeType,
        format: spec.format,
        bytes: file.bytes,
        ...(spec.width !== undefined ? { width: spec.width, height: spec.height } : {}),
        ...(spec.durationSeconds !== undefined ? { durationSeconds: spec.durationSeconds } : {}),
      }),
    );
  };
}
