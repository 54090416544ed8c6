// The signer's tags (list cursors): 128 bits of HMAC under the current secret, matched only in their canonical spelling.
import { describe, expect, it } from 'vitest';
import { createSigner, createSigningSecret } from '../../../src/infra/signer.js';

describe('signer tags', () => {
  it('tags a message the same way under one secret, and differently under another or for another message', () => {
    const tag = createSigner('secret-a').tag('page 1');
    expect(tag).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(createSigner('secret-a').tag('page 1')).toBe(tag);
    expect(createSigner('secret-b').tag('page 1')).not.toBe(tag);
    expect(createSigner('secret-a').tag('page 2')).not.toBe(tag);
  });

  it('matches its own tag only, spelled exactly as it wrote it', () => {
    const signer = createSigner('secret-a');
    const tag = signer.tag('page 1');
    expect(signer.tagMatches('page 1', tag)).toBe(true);
    expect(signer.tagMatches('page 2', tag)).toBe(false);
    for (const altered of [`${tag}!!!`, `${tag}=`, `${tag}A`, tag.slice(0, -1), ` ${tag}`, tag.replaceAll('-', '+')])
      if (altered !== tag) expect(signer.tagMatches('page 1', altered), altered).toBe(false);
  });

  it('never matches a URL signature: tags have a domain of their own', () => {
    const signer = createSigner('secret-a');
    const signature = signer.sign('/files/gen_1/0.mp4', 1_800_000_000);
    expect(
      signer.tagMatches(
        '/files/gen_1/0.mp4\n1800000000',
        Buffer.from(signature, 'hex').subarray(0, 16).toString('base64url'),
      ),
    ).toBe(false);
  });

  it('stops matching tags made before the secret rotates (a reset or an import)', () => {
    const secret = createSigningSecret('configured');
    const signer = createSigner(secret);
    const before = signer.tag('page 1');
    secret.rotate();
    expect(signer.tagMatches('page 1', before)).toBe(false);
    expect(signer.tag('page 1')).not.toBe(before);
  });
});
