// HMAC-SHA256 signatures over (path, expiry) for output URLs, checked in constant time against the emulator clock.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type Verdict = 'ok' | 'unsigned' | 'invalid' | 'expired';

export interface Signer {
  sign(path: string, expiresAtSeconds: number): string;
  verify(path: string, expires: unknown, signature: unknown, nowMs: number): Verdict;
}

/** Reads within one second sign the same (path, expiry): remembering that second's signatures saves an HMAC per output. */
const MAX_REMEMBERED = 5_000;

export function createSigner(secret: string): Signer {
  const mac = (path: string, expires: string) => createHmac('sha256', secret).update(`${path}\n${expires}`).digest();
  let rememberedSecond = -1;
  const remembered = new Map<string, string>();
  return {
    sign(path, expiresAtSeconds) {
      if (expiresAtSeconds !== rememberedSecond || remembered.size >= MAX_REMEMBERED) {
        remembered.clear();
        rememberedSecond = expiresAtSeconds;
      }
      let signature = remembered.get(path);
      if (signature === undefined) {
        signature = mac(path, String(expiresAtSeconds)).toString('hex');
        remembered.set(path, signature);
      }
      return signature;
    },
    verify(path, expires, signature, nowMs) {
      if (typeof expires !== 'string' || typeof signature !== 'string')
        return expires === undefined && signature === undefined ? 'unsigned' : 'invalid';
      if (!/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
      const expected = mac(path, expires);
      const given = Buffer.from(signature, 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return Number(expires) * 1000 <= nowMs ? 'expired' : 'ok';
    },
  };
}
