// HMAC-SHA256 signatures over (path, expiry) for output URLs, checked in constant time against the emulator clock.
import { bytesToBase64url, bytesToHex, hexToBytes } from './byte-text.js';
import { sameSecret } from './constant-time.js';
import type { HostCrypto } from './host-crypto.js';

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
export function createSigningSecret(configured: string | undefined, crypto: HostCrypto): SigningSecret {
  let rotations = 0;
  const next = () =>
    configured === undefined
      ? bytesToHex(crypto.randomBytes(32))
      : rotations === 0
        ? configured
        : crypto.hmacSha256Hex(configured, `rotation ${rotations}`);
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
export function createSigner(secret: SigningSecret | string, crypto: HostCrypto): Signer {
  const source = typeof secret === 'string' ? { current: () => secret } : secret;
  const mac = (path: string, expires: string) => crypto.hmacSha256Hex(source.current(), `${path}\n${expires}`);
  // Tags of messages asked again (a list page read again hands out the same cursor), under the secret they were made with.
  // Both maps are made at their first use: most sandboxes never list or link anything.
  let tags: Map<string, string> | undefined;
  let tagsSecret = '';
  const tagOf = (message: string): string => {
    if (tags === undefined || tagsSecret !== source.current() || tags.size >= MAX_REMEMBERED) {
      tagsSecret = source.current();
      tags = new Map();
    }
    let tag = tags.get(message);
    if (tag === undefined) {
      // A prefix of its own, so a tag never signs what a URL signature signs ("/path\nexpiry").
      const hmac = crypto.hmacSha256Hex(tagsSecret, `tag\n${message}`);
      tag = bytesToBase64url(hexToBytes(hmac.slice(0, 2 * TAG_BYTES))!);
      tags.set(message, tag);
    }
    return tag;
  };
  let rememberedSecond = -1;
  let rememberedSecret = '';
  let remembered: Map<string, string> | undefined;
  return {
    sign(path, expiresAtSeconds) {
      if (
        remembered === undefined ||
        expiresAtSeconds !== rememberedSecond ||
        remembered.size >= MAX_REMEMBERED ||
        rememberedSecret !== source.current()
      ) {
        rememberedSecret = source.current();
        remembered = new Map();
        rememberedSecond = expiresAtSeconds;
      }
      let signature = remembered.get(path);
      if (signature === undefined) {
        signature = mac(path, String(expiresAtSeconds));
        remembered.set(path, signature);
      }
      return signature;
    },
    verify(path, expires, signature, nowMs) {
      if (typeof expires !== 'string' || typeof signature !== 'string')
        return expires === undefined && signature === undefined ? 'unsigned' : 'invalid';
      if (!/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
      // Lower-case hex both (the pattern above), so equal texts are equal signatures.
      if (!sameSecret(signature, mac(path, expires))) return 'invalid';
      return Number(expires) * 1000 <= nowMs ? 'expired' : 'ok';
    },
    tag: tagOf,
    // The text as handed out, compared whole: another spelling of the same bytes (base64 decoders skip what is not
    // base64url, and ignore a last character's low bits) is no tag of ours.
    tagMatches: (message, tag) => sameSecret(tag, tagOf(message)),
  };
}
