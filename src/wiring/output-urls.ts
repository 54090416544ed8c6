// Signed output URLs in one place: the file path, the expiry from the URL lifetime, the HMAC signature.
import type { Generation, OutputFile } from '../domain/generation.js';
import type { OutputUrlSigner } from '../domain/generation-view.js';
import { filePath } from '../http/routes/files.js';
import type { Clock } from '../infra/clock.js';
import type { Renderer } from '../infra/renderer.js';
import type { Signer } from '../infra/signer.js';

export interface OutputUrlParts {
  clock: Clock;
  signer: Signer;
  urlTtlSeconds: number;
  /** Keeps a file at least as long as the URL just handed out stays valid. */
  currentRenderer(): Renderer | undefined;
}

/** Signs output URLs for a request that reached the emulator at `baseUrl`; every read gives a fresh URL. */
export function outputSigner(parts: OutputUrlParts): (baseUrl: string) => OutputUrlSigner {
  return (baseUrl) => (g: Generation, o: OutputFile) => {
    const now = parts.clock.now();
    const expiresAtSeconds = Math.floor(
      (g.plan.outputUrls === 'expired' ? now - 1000 : now + parts.urlTtlSeconds * 1000) / 1000,
    );
    const path = filePath(g.id, o.index, o.format);
    parts.currentRenderer()?.touch(o.fileKey, expiresAtSeconds * 1000);
    return {
      url: `${baseUrl}${path}?expires=${expiresAtSeconds}&signature=${parts.signer.sign(path, expiresAtSeconds)}`,
      expiresAt: expiresAtSeconds * 1000,
    };
  };
}
