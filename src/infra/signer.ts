// HMAC-SHA256 signatures over (path, expiry) for output URLs, checked in constant time against the emulator clock.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type Verdict = 'ok' | 'unsigned' | 'invalid' | 'expired';

export interface Signer {
  sign(path: string, expiresAtSeconds: number): string;
  verify(path: string, expires: unknown, signature: unknown, nowMs: number): Verdict;
  /** A tag of `message` under the current secret (HMAC-SHA256, 128 bits, base64url): for tokens it must recognise later. */
  tag(message: string): string;
  /** Whether `tag` is tag(message), compared in constant time. */
  tagMatches(message: string, tag: string): boolean;
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

/** 128 bits of the HMAC: forging one is a 2^-128 guess per try, and a token stays short. */
const TAG_BYTES = 16;

/** Signs with `secret`: a SigningSecret (rotating), or a fixed string. */
export function createSigner(secret: SigningSecret | string): Signer {
  const source = typeof secret === 'string' ? { current: () => secret } : secret;
  const mac = (path: string, expires: string) =>
    createHmac('sha256', source.current()).update(`${path}\n${expires}`).digest();
  // Tags of messages asked again (a list page read again hands out the same cursor), under the secret they were made with.
  const tags = new Map<string, Buffer>();
  let tagsSecret = '';
  const tagOf = (message: string): Buffer => {
    if (tagsSecret !== source.current() || tags.size >= MAX_REMEMBERED) {
      tagsSecret = source.current();
      tags.clear();
    }
    let tag = tags.get(message);
    if (tag === undefined) {
      // A prefix of its own, so a tag never signs what a URL signature signs ("/path\nexpiry").
      tag = createHmac('sha256', tagsSecret).update(`tag\n${message}`).digest().subarray(0, TAG_BYTES);
      tags.set(message, tag);
    }
    return tag;
  };
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
    tag: (message) => tagOf(message).toString('base64url'),
    tagMatches(message, tag) {
      const expected = tagOf(message);
      const given = Buffer.from(tag, 'base64url');
      // base64url decoding skips what is not base64url: the text must be the canonical spelling of the bytes too.
      return (
        given.length === expected.length && timingSafeEqual(given, expected) && given.toString('base64url') === tag
      );
    },
  };
}
