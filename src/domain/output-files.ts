// Which stored output a signed file URL names, and how long a browser may cache it: the rules behind GET /files/*.
import type { DomainContext } from './context.js';
import { DomainError } from './errors.js';
import type { Generation, OutputFile } from './generation.js';
import type { Verdict } from '../infra/signer.js';
import type { StoredOutput } from './output-file-source.js';

/** What a verified link names: the completed generation and one of its outputs. */
export interface SignedOutput {
  generation: Generation;
  output: OutputFile;
}

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
 * The output a signed URL names (`0.mp4` of a completed generation), or the refusal its client should see. Checked
 * before any file is looked for or rendered: a forged, expired or refused link (the output access's) costs no work.
 */
export function signedOutput(
  ctx: DomainContext,
  verdict: Verdict,
  generationId: string,
  name: string,
  expires: number,
): SignedOutput {
  if (verdict !== 'ok') throw new DomainError(REFUSALS[verdict][0], REFUSALS[verdict][1]);
  const match = /^(\d{1,3})\.([a-z0-9]+)$/.exec(name);
  const generation = ctx.generations.get(generationId);
  const output =
    match && generation?.status === 'completed'
      ? generation.outputs.find((o) => o.index === Number(match[1]) && o.format === match[2])
      : undefined;
  const refusal = generation && ctx.outputAccess?.refusal(generation, expires);
  if (refusal === 'expired') throw new DomainError(REFUSALS.expired[0], REFUSALS.expired[1]);
  if (!generation || !output || refusal === 'missing')
    throw new DomainError(
      'output_not_found',
      'No such output file. Check the generation id and the file name, or read the generation again for its links.',
    );
  return { generation, output };
}

/**
 * The file of a verified link: the stored one, or one rendered again when the store lost it. A burst of requests for
 * the same lost file shares one render (the renderer coalesces by content key); a failed render answers 503, since
 * a later try may well succeed (a render timed out under load), and the generation keeps its status and charge.
 */
export async function outputFile(ctx: DomainContext, signed: SignedOutput, expires: number): Promise<StoredOutput> {
  const kept = ctx.outputFiles.kept(signed.output);
  if (kept) return kept;
  try {
    return await ctx.outputFiles.restore(signed.generation, signed.output, expires * 1000);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError(
      'output_unavailable',
      'The output file was no longer stored and rendering it again failed. Try again in a moment; if it keeps failing, submit the generation again.',
    );
  }
}

/**
 * Browser caches run on real time, the links on the emulator clock: max-age is what is left of the link's life, and
 * nothing is stored once the clock is frozen or moved (a cached copy would outlive the link).
 */
export function outputCacheControl(ctx: DomainContext, expiresAtSeconds: number): string {
  const left = Math.floor((expiresAtSeconds * 1000 - ctx.clock.now()) / 1000);
  return ctx.clock.moved || left <= 0 ? 'no-store' : `private, max-age=${left}`;
}
