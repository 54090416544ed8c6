// Signed output files: HMAC-checked against the emulator clock, served with byte ranges for <video> seeking.
import { type Request, Router } from 'express';
import type { DomainContext } from '../../domain/context.js';
import { DomainError } from '../../domain/errors.js';
import { methodNotAllowed } from '../errors.js';
import type { RouteDeps } from './deps.js';

const REFUSALS = {
  unsigned: [
    'url_unsigned',
    'This file URL carries no signature. Read the generation again to get a fresh signed URL.',
  ],
  invalid: [
    'url_signature_invalid',
    'The signature of this file URL does not match. Use the URL exactly as the API returned it.',
  ],
  expired: [
    'url_expired',
    'This signed URL has expired. Read the generation again (GET /v1/media/generations/{id}) for a fresh URL, and copy the file to your own storage.',
  ],
} as const;

export function filePath(generationId: string, index: number, format: string): string {
  return `/files/${encodeURIComponent(generationId)}/${index}.${format}`;
}

/**
 * Browser caches run on real time, the links on the emulator clock: max-age is what is left of the link's life, and
 * nothing is stored once the clock is frozen or moved (a cached copy would outlive the link).
 */
export function cacheControl(ctx: DomainContext, expiresAtSeconds: number): string {
  const left = Math.floor((expiresAtSeconds * 1000 - ctx.clock.now()) / 1000);
  return ctx.clock.moved || left <= 0 ? 'no-store' : `private, max-age=${left}`;
}

function findOutput(ctx: DomainContext, generationId: string, name: string, expires: number) {
  const match = /^(\d{1,3})\.([a-z0-9]+)$/.exec(name);
  const generation = ctx.generations.get(generationId);
  const output =
    match && generation?.status === 'completed'
      ? generation.outputs.find((o) => o.index === Number(match[1]) && o.format === match[2])
      : undefined;
  // "Expire this link now" in the control plane: links signed up to that moment answer as expired ones do.
  if (generation && expires <= (generation.linksExpiredThrough ?? -1))
    throw new DomainError(REFUSALS.expired[0], REFUSALS.expired[1]);
  if (!generation || !output || generation.plan.outputUrls === 'missing')
    throw new DomainError(
      'output_not_found',
      'No such output file. It may have been evicted after its URL expired; read the generation again.',
    );
  return output;
}

/**
 * RFC 9110 14.1.2: a suffix range longer than the representation selects all of it (206 of the whole file), where
 * the range parser underneath refuses it with 416. Rewritten to the equivalent `bytes=0-` before it is parsed.
 */
function suffixRangeCoversAll(req: Request, size: number): void {
  const match = /^\s*bytes\s*=\s*-\s*(\d+)\s*$/i.exec(req.headers.range ?? '');
  if (match && Number(match[1]) >= size && Number(match[1]) > 0) req.headers.range = 'bytes=0-';
}

export function fileRoutes(deps: RouteDeps): Router {
  const router = Router({ caseSensitive: true });
  router
    .route('/files/:generationId/:name')
    .get((req, res, next) => {
      const ctx = deps.ctx();
      const generationId = String(req.params.generationId);
      const name = String(req.params.name);
      const verdict = deps
        .signer()
        .verify(
          `/files/${encodeURIComponent(generationId)}/${name}`,
          req.query.expires,
          req.query.signature,
          ctx.clock.now(),
        );
      if (verdict !== 'ok') throw new DomainError(REFUSALS[verdict][0], REFUSALS[verdict][1]);
      const expires = Number(req.query.expires);
      const output = findOutput(ctx, generationId, name, expires);
      const stored = deps.renderer()?.get(output.fileKey);
      if (!stored)
        throw new DomainError(
          'output_not_found',
          'The output file is no longer stored (evicted after its URL expired). Submit the generation again.',
        );
      suffixRangeCoversAll(req, stored.bytes);
      res.sendFile(
        stored.path,
        {
          headers: { 'Content-Type': output.mimeType, 'Cache-Control': cacheControl(ctx, expires) },
          acceptRanges: true,
          lastModified: false,
          etag: false,
        },
        (error) => {
          if (error && !res.headersSent) next(error);
        },
      );
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
