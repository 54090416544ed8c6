// Signed output URLs in one place: the file path, the expiry from the URL lifetime, the HMAC signature.
import type { Generation, OutputFile } from '../domain/generation.js';
import type { OutputAccess } from '../domain/context.js';
import { isoTimestamp, type OutputUrlSigner } from '../domain/generation-view.js';
import { filePath } from '../domain/output-files.js';
import type { Clock } from '../infra/clock.js';
import type { AnyRenderer } from '../infra/renderer.js';
import type { Signer } from '../infra/signer.js';

export interface OutputUrlParts {
  clock: Clock;
  signer: Signer;
  urlTtlSeconds: number;
  /** A plugin's say in how links are signed (already expired, or past a cut-off). */
  access?: OutputAccess;
  /** Keeps a file at least as long as the URL just handed out stays valid. */
  currentRenderer(): AnyRenderer | undefined;
  /** The sandbox the URL names (`&sandbox=`): the download is verified with that world's secret, so it cannot lie. */
  world?: string;
}

/** Signs output URLs for a request that reached the emulator at `baseUrl`; every read gives a fresh URL. */
export function outputSigner(parts: OutputUrlParts): (baseUrl: string) => OutputUrlSigner {
  let formatted = { seconds: Number.NaN, text: '' };
  const expiryText = (seconds: number) => {
    if (formatted.seconds !== seconds) formatted = { seconds, text: isoTimestamp(seconds * 1000) };
    return formatted.text;
  };
  const worldMember = parts.world === undefined ? '' : `&sandbox=${encodeURIComponent(parts.world)}`;
  return (baseUrl) => (g: Generation, o: OutputFile) => {
    const now = parts.clock.now();
    const signing = parts.access?.signing(g);
    // A URL handed out after a cut-off must outlive it, even on a clock that has not moved.
    const expiresAtSeconds =
      signing === 'expired'
        ? Math.floor((now - 1000) / 1000)
        : Math.max(Math.floor((now + parts.urlTtlSeconds * 1000) / 1000), (signing ?? 0) + 1);
    const path = filePath(g.id, o.index, o.format);
    parts.currentRenderer()?.touch(o.fileKey, expiresAtSeconds * 1000);
    return {
      url: `${baseUrl}${path}?expires=${expiresAtSeconds}&signature=${parts.signer.sign(path, expiresAtSeconds)}${worldMember}`,
      expiresAt: expiresAtSeconds * 1000,
      expiresAtText: expiryText(expiresAtSeconds),
    };
  };
}
