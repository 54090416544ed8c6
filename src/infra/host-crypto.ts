// The hashing, HMAC and random bytes a host provides (Node: node:crypto; a browser: a synchronous library): all synchronous.

/**
 * Views sign output URLs while they build an answer, synchronously, so the HMAC cannot be WebCrypto's (its `sign` is
 * a promise). Text is hashed as UTF-8, as Node's `update(string)` does. Digests come as hex, the form every caller
 * keeps (signatures, hashes, derived secrets): on Node that costs half of a digest to bytes and a conversion.
 */
export interface HostCrypto {
  /** SHA-256 of the bytes, or of the text as UTF-8, as 64 lower-case hex digits. */
  sha256Hex(data: Uint8Array | string): string;
  /** HMAC-SHA256 of `message` under `key`, both UTF-8, as 64 lower-case hex digits. */
  hmacSha256Hex(key: string, message: string): string;
  /** Bytes from the host's cryptographically secure generator. */
  randomBytes(length: number): Uint8Array;
}
