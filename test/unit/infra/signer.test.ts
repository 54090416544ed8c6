// The signer's tags (list cursors): 128 bits of HMAC under the current secret, matched only in their canonical spelling.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSigner, createSigningSecret } from '../../../src/infra/signer.js';
import { nodeCrypto } from '../../../src/infra/node/node-crypto.js';

describe('signer tags', () => {
  it('tags a message the same way under one secret, and differently under another or for another message', () => {
    const tag = createSigner('secret-a', nodeCrypto).tag('page 1');
    expect(tag).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(createSigner('secret-a', nodeCrypto).tag('page 1')).toBe(tag);
    expect(createSigner('secret-b', nodeCrypto).tag('page 1')).not.toBe(tag);
    expect(createSigner('secret-a', nodeCrypto).tag('page 2')).not.toBe(tag);
  });

  it('matches its own tag only, spelled exactly as it wrote it', () => {
    const signer = createSigner('secret-a', nodeCrypto);
    const tag = signer.tag('page 1');
    expect(signer.tagMatches('page 1', tag)).toBe(true);
    expect(signer.tagMatches('page 2', tag)).toBe(false);
    for (const altered of [`${tag}!!!`, `${tag}=`, `${tag}A`, tag.slice(0, -1), ` ${tag}`, tag.replaceAll('-', '+')])
      if (altered !== tag) expect(signer.tagMatches('page 1', altered), altered).toBe(false);
  });

  it('never matches a URL signature: tags have a domain of their own', () => {
    const signer = createSigner('secret-a', nodeCrypto);
    const signature = signer.sign('/files/gen_1/0.mp4', 1_800_000_000);
    expect(
      signer.tagMatches(
        '/files/gen_1/0.mp4\n1800000000',
        Buffer.from(signature, 'hex').subarray(0, 16).toString('base64url'),
      ),
    ).toBe(false);
  });

  it('stops matching tags made before the secret rotates (a reset or an import)', () => {
    const secret = createSigningSecret('configured', nodeCrypto);
    const signer = createSigner(secret, nodeCrypto);
    const before = signer.tag('page 1');
    secret.rotate();
    expect(signer.tagMatches('page 1', before)).toBe(false);
    expect(signer.tag('page 1')).not.toBe(before);
  });
});

describe('signer signatures', () => {
  const path = '/files/gen_1/0.mp4';

  it('are the HMAC-SHA256 of the path and the expiry in lower-case hex, whatever the host computes them with', () => {
    const signature = createSigner('secret-a', nodeCrypto).sign(path, 1_800_000_000);
    expect(signature).toBe(createHmac('sha256', 'secret-a').update(`${path}\n1800000000`).digest('hex'));
  });

  it('verify as ok only spelled as signed: not upper-case, not under another secret, not for another path', () => {
    const signer = createSigner('secret-a', nodeCrypto);
    const signature = signer.sign(path, 1_800_000_000);
    expect(signer.verify(path, '1800000000', signature, 0)).toBe('ok');
    expect(signer.verify(path, '1800000000', signature, 1_800_000_000_000)).toBe('expired');
    expect(signer.verify(path, '1800000000', signature.toUpperCase(), 0)).toBe('invalid');
    expect(signer.verify('/files/gen_1/1.mp4', '1800000000', signature, 0)).toBe('invalid');
    expect(createSigner('secret-b', nodeCrypto).verify(path, '1800000000', signature, 0)).toBe('invalid');
    expect(signer.verify(path, '1800000001', signature, 0)).toBe('invalid');
  });

  it('rotate a configured secret to HMAC(configured, "rotation n"), the same links on every run', () => {
    const secret = createSigningSecret('configured', nodeCrypto);
    expect(secret.current()).toBe('configured');
    secret.rotate();
    expect(secret.current()).toBe(createHmac('sha256', 'configured').update('rotation 1').digest('hex'));
    expect(createSigningSecret(undefined, nodeCrypto).current()).toMatch(/^[0-9a-f]{64}$/);
  });
});
