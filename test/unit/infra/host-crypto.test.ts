// What every host's crypto must answer (src/infra/host-crypto.ts), checked against published test vectors: the
// signed links, cursor tags and upload hashes of one state are then the same on every host.
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../../src/infra/byte-text.js';
import { sameSecret } from '../../../src/infra/constant-time.js';
import type { HostCrypto } from '../../../src/infra/host-crypto.js';
import { nodeCrypto } from '../../../src/infra/node/node-crypto.js';

const HOSTS: [string, HostCrypto][] = [['node:crypto', nodeCrypto]];

describe.each(HOSTS)('host crypto: %s', (_, crypto) => {
  it('hashes bytes, and text as UTF-8, with SHA-256 (FIPS 180-2 vectors)', () => {
    expect(crypto.sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(crypto.sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(crypto.sha256Hex('abc'));
    expect(crypto.sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(crypto.sha256Hex('é')).toBe(crypto.sha256Hex(new Uint8Array([0xc3, 0xa9])));
  });

  it('signs with HMAC-SHA256 (RFC 4231, test case 2), key and message as UTF-8', () => {
    expect(crypto.hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    // Key and message as UTF-8 bytes (as Latin-1 they would give 6ada8273...).
    expect(crypto.hmacSha256Hex('ключ', 'é')).toBe('e4c4aaaf72dd2e06b6b8cd1791be87d4afbfc84dd6b4bf44da66a7ec5a0c2a6e');
  });

  it('draws random bytes of the length asked', () => {
    const drawn = crypto.randomBytes(32);
    expect(drawn).toHaveLength(32);
    expect(bytesToHex(drawn)).not.toBe(bytesToHex(crypto.randomBytes(32)));
  });
});

describe('a secret compared in constant time (admin token, signature, tag)', () => {
  it('matches the same text only: not a prefix, an extension, a repetition or another of the same length', () => {
    expect(sameSecret('token-123', 'token-123')).toBe(true);
    for (const given of ['token-12', 'token-1234', 'token-124', 'token-123token-123', '', 'TOKEN-123'])
      expect(sameSecret(given, 'token-123'), given).toBe(false);
    expect(sameSecret('', '')).toBe(true);
    expect(sameSecret('a', '')).toBe(false);
  });
});
