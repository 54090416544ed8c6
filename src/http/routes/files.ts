// Signed output files: HMAC-checked against the emulator clock, served with byte ranges for <video> seeking.
import type { IRouter, Request } from 'express';
import { outputCacheControl, outputFile, signedOutput } from '../../domain/output-files.js';
import { methodNotAllowed } from '../errors.js';
import type { RouteDeps } from './deps.js';

/**
 * RFC 9110 14.1.2: a suffix range longer than the representation selects all of it (206 of the whole file), where
 * the range parser underneath refuses it with 416. Rewritten to the equivalent `bytes=0-` before it is parsed.
 */
function suffixRangeCoversAll(req: Request, size: number): void {
  const match = /^\s*bytes\s*=\s*-\s*(\d+)\s*$/i.exec(req.headers.range ?? '');
  if (match && Number(match[1]) >= size && Number(match[1]) > 0) req.headers.range = 'bytes=0-';
}

export function fileRoutes(router: IRouter, deps: RouteDeps): void {
  router
    .route('/files/:generationId/:name')
    .get(async (req, res, next) => {
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
      const expires = Number(req.query.expires);
      const signed = signedOutput(ctx, verdict, generationId, name, expires);
      const stored = await outputFile(ctx, signed, expires);
      // Node's renderers keep files on disk; outputs held in memory are a browser host's, which Express never serves.
      if (stored.path === undefined) throw new Error('the Node file route serves outputs stored on disk only');
      suffixRangeCoversAll(req, stored.bytes);
      res.sendFile(
        stored.path,
        {
          headers: { 'Content-Type': signed.output.mimeType, 'Cache-Control': outputCacheControl(ctx, expires) },
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
}
