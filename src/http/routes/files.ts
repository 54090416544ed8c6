// Signed output files: HMAC-checked against the emulator clock, served with byte ranges for <video> seeking.
import { outputCacheControl, outputFile, signedOutput } from '../../domain/output-files.js';
import type { Exchange } from '../exchange.js';
import { fileAnswer } from '../file-answer.js';

export async function getOutputFile(x: Exchange) {
  const ctx = x.world.runtime.context();
  const { generation_id: generationId, name } = x.dispatch.params;
  const { query } = x.request;
  const verdict = x.world.signer.verify(
    `/files/${encodeURIComponent(generationId)}/${name}`,
    query.expires,
    query.signature,
    ctx.clock.now(),
  );
  const expires = Number(query.expires);
  const signed = signedOutput(ctx, verdict, generationId, name, expires);
  const stored = await outputFile(ctx, signed, expires);
  // A file on disk (Node's renderers), or the bytes themselves (a host that keeps outputs in memory).
  return fileAnswer(x.request, stored, stored.bytes, {
    'Content-Type': signed.output.mimeType,
    'Cache-Control': outputCacheControl(ctx, expires),
  });
}
