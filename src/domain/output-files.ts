// Which stored output a signed file URL names, and how long a browser may cache it: the rules behind GET /files/*.
import type { DomainContext } from './context.js';
import { DomainError } from './errors.js';
import type { OutputFile } from './generation.js';
import type { Verdict } from '../infra/signer.js';

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

/** The output a signed URL names (`0.mp4` of a completed generation), or the refusal its client should see. */
export function signedOutput(
  ctx: DomainContext,
  verdict: Verdict,
  generationId: string,
  name: string,
  expires: number,
): OutputFile {
  if (verdict !== 'ok') throw new DomainError(REFUSALS[verdict][0], REFUSALS[verdict][1]);
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
 * Browser caches run on real time, the links on the emulator clock: max-age is what is left of the link's life, and
 * nothing is stored once the clock is frozen or moved (a cached copy would outlive the link).
 */
export function outputCacheControl(ctx: DomainContext, expiresAtSeconds: number): string {
  const left = Math.floor((expiresAtSeconds * 1000 - ctx.clock.now()) / 1000);
  return ctx.clock.moved || left <= 0 ? 'no-store' : `private, max-age=${left}`;
}
