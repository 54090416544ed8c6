// The browser's host crypto (@noble/hashes) gives the same digests as Node's (node:crypto), text read as UTF-8 by both.
import { describe, expect, it } from 'vitest';
import { nobleCrypto } from '../../../src/infra/noble-crypto.js';
import { nodeCrypto } from '../../../src/infra/node/node-crypto.js';

const texts = ['', 'a fox at dawn', 'é ☃ 𝄞', 'lone \ud800 surrogate', 'x'.repeat(100_000)];

describe('the browser host crypto', () => {
  it.each(texts)('hashes text and bytes as node:crypto does (%#)', (text) => {
    expect(nobleCrypto.sha256Hex(text)).toBe(nodeCrypto.sha256Hex(text));
    const bytes = new TextEncoder().encode(text);
    expect(nobleCrypto.sha256Hex(bytes)).toBe(nodeCrypto.sha256Hex(bytes));
  });

  it.each(texts)('signs as node:crypto does (%#)', (text) => {
    expect(nobleCrypto.hmacSha256Hex(text, `gen_1|${text}`)).toBe(nodeCrypto.hmacSha256Hex(text, `gen_1|${text}`));
  });

  it('draws random bytes of any length, past one getRandomValues call', () => {
    const bytes = nobleCrypto.randomBytes(70_000);
    expect(bytes.length).toBe(70_000);
    expect(bytes.subarray(66_000).some((b) => b !== 0)).toBe(true);
  });
});
