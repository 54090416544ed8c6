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
class RotatingSecret implements SigningSecret {
  private rotations = 0;
  private secret: string;

  constructor(
    private readonly configured: string | undefined,
    private readonly crypto: HostCrypto,
  ) {
    this.secret = this.next();
  }

  current() {
    return this.secret;
  }

  rotate() {
    this.rotations += 1;
    this.secret = this.next();
  }

  restore(kept: string) {
    this.secret = kept;
  }

  private next() {
    const { configured, crypto, rotations } = this;
    if (configured === undefined) return bytesToHex(crypto.randomBytes(32));
    return rotations === 0 ? configured : crypto.hmacSha256Hex(configured, `rotation ${rotations}`);
  }
}

export const createSigningSecret = (configured: string | undefined, crypto: HostCrypto): SigningSecret =>
  new RotatingSecret(configured, crypto);

/** 128 bits of the HMAC: forging one is a 2^-128 guess per try, and a token stays short. */
const TAG_BYTES = 16;

/**
 * Signs with a SigningSecret (rotating) or a fixed string. A class, not an object of closures: every world (each
 * sandbox) holds one, and its memo maps are made at their first use, since most sandboxes never list or link anything.
 */
class HmacSigner implements Signer {
  /** Tags of messages asked again (a list page read again hands out the same cursor), under the secret they were made with. */
  private tags: Map<string, string> | undefined;
  private tagsSecret = '';
  private rememberedSecond = -1;
  private rememberedSecret = '';
  private remembered: Map<string, string> | undefined;

  constructor(
    private readonly source: Pick<SigningSecret, 'current'>,
    private readonly crypto: HostCrypto,
  ) {}

  sign(path: string, expiresAtSeconds: number) {
    const current = this.source.current();
    if (
      this.remembered === undefined ||
      expiresAtSeconds !== this.rememberedSecond ||
      this.remembered.size >= MAX_REMEMBERED ||
      this.rememberedSecret !== current
    ) {
      this.rememberedSecret = current;
      this.remembered = new Map();
      this.rememberedSecond = expiresAtSeconds;
    }
    let signature = this.remembered.get(path);
    if (signature === undefined) {
      signature = this.mac(path, String(expiresAtSeconds));
      this.remembered.set(path, signature);
    }
    return signature;
  }

  verify(path: string, expires: unknown, signature: unknown, nowMs: number): Verdict {
    if (typeof expires !== 'string' || typeof signature !== 'string')
      return expires === undefined && signature === undefined ? 'unsigned' : 'invalid';
    if (!/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
    // Lower-case hex both (the pattern above), so equal texts are equal signatures.
    if (!sameSecret(signature, this.mac(path, expires))) return 'invalid';
    return Number(expires) * 1000 <= nowMs ? 'expired' : 'ok';
  }

  tag(message: string): string {
    if (this.tags === undefined || this.tagsSecret !== this.source.current() || this.tags.size >= MAX_REMEMBERED) {
      this.tagsSecret = this.source.current();
      this.tags = new Map();
    }
    let tag = this.tags.get(message);
    if (tag === undefined) {
      // A prefix of its own, so a tag never signs what a URL signature signs ("/path\nexpiry").
      const hmac = this.crypto.hmacSha256Hex(this.tagsSecret, `tag\n${message}`);
      tag = bytesToBase64url(hexToBytes(hmac.slice(0, 2 * TAG_BYTES))!);
      this.tags.set(message, tag);
    }
    return tag;
  }

  // The text as handed out, compared whole: another spelling of the same bytes (base64 decoders skip what is not
  // base64url, and ignore a last character's low bits) is no tag of ours.
  tagMatches(message: string, tag: string) {
    return sameSecret(tag, this.tag(message));
  }

  private mac(path: string, expires: string) {
    return this.crypto.hmacSha256Hex(this.source.current(), `${path}\n${expires}`);
  }
}

/** Signs with `secret`: a SigningSecret (rotating), or a fixed string. */
export const createSigner = (secret: SigningSecret | string, crypto: HostCrypto): Signer =>
  new HmacSigner(typeof secret === 'string' ? { current: () => secret } : secret, crypto);
