// A browser's host crypto (src/infra/host-crypto.ts): @noble/hashes, synchronous where WebCrypto's digests are promises.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { HostCrypto } from './host-crypto.js';

const utf8 = new TextEncoder();
const bytesOf = (data: Uint8Array | string) => (typeof data === 'string' ? utf8.encode(data) : data);

/** Random bytes from the platform's generator (`crypto.getRandomValues`: browsers, workers, Node 20+). */
function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  // getRandomValues fills at most 65,536 bytes a call.
  for (let at = 0; at < length; at += 65_536) globalThis.crypto.getRandomValues(bytes.subarray(at, at + 65_536));
  return bytes;
}

export const nobleCrypto: HostCrypto = {
  sha256Hex: (data) => bytesToHex(sha256(bytesOf(data))),
  hmacSha256Hex: (key, message) => bytesToHex(hmac(sha256, utf8.encode(key), utf8.encode(message))),
  randomBytes,
};
