// HMAC-SHA256 signatures over (path, expiry) for output URLs, checked in constant time against the emulator clock.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type Verdict = 'ok' | 'unsigned' | 'invalid' | 'expired';

export interface Signer {
  sign(path: string, expiresAtSeconds: number): string;
  verify(path: string, expires: unknown, signature: unknown, nowMs: number): Verdict;
}

/** Reads within one second sign the same (path, expiry): remembering that second's signatures saves an HMAC per output. */
const MAX_REMEMBERED = 5_000;

/**
 * The secret output URLs are signed with, owned by the composition root: it rotates on every reset and import, so a
 * link handed out before answers 403 after, and `restore` puts back a secret kept with the state.
 */
export interface SigningSecret {
  current(): string;
  /** A new secret: random, or with a configured one, the next in a sequence derived from it (same on every run). */
  rotate(): void;
  /** Puts back a secret kept with the state (so links survive a restart). */
  restore(secret: string): void;
}

/**
 * Random per state unless `configured` (--signing-secret), never derived from the seed: a seed is no secret. With a
 * configured secret, rotation n signs with HMAC(configured, n), so two runs doing the same resets hand out the same links.
 */
export function createSigningSecret(configured: string | undefined): SigningSecret {
  let rotations = 0;
  const next = () =>
    configured === undefined
      ? randomBytes(32).toString('hex')
      : rotations === 0
        ? configured
        : createHmac('sha256', configured).update(`rotation ${rotations}`).digest('hex');
  let secret = next();
  return {
    current: () => secret,
    rotate() {
      rotations += 1;
      secret = next();
    },
    restore(kept) {
      secret = kept;
    },
  };
}

/** Signs with `secret`: a SigningSecret (rotating), or a fixed string. */
export function createSigner(secret: SigningSecret | string): Signer {
  const source = typeof secret === 'string' ? { current: () => secret } : secret;
  const mac = (path: string, expires: string) =>
    createHmac('sha256', source.current()).update(`${path}\n${expires}`).digest();
  let rememberedSecond = -1;
  let rememberedSecret = '';
  const remembered = new Map<string, string>();
  return {
    sign(path, expiresAtSeconds) {
      if (
        expiresAtSeconds !== rememberedSecond ||
        remembered.size >= MAX_REMEMBERED ||
        rememberedSecret !== source.current()
      ) {
        rememberedSecret = source.current();
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
