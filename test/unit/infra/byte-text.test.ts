// Hex and base64 without Buffer: the same text and bytes as Node's Buffer, which signatures, tags and old state
// documents were written and read with.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64url, bytesToHex, hexToBytes } from '../../../src/infra/byte-text.js';

const bytes = fc.uint8Array({ maxLength: 70 });

describe('bytes as text', () => {
  it("writes hex and base64url as Buffer's toString does, and reads them back", () => {
    fc.assert(
      fc.property(bytes, (data) => {
        const buffer = Buffer.from(data);
        expect(bytesToHex(data)).toBe(buffer.toString('hex'));
        expect(hexToBytes(buffer.toString('hex'))).toEqual(data);
        expect(hexToBytes(buffer.toString('hex').toUpperCase())).toEqual(data);
        expect(bytesToBase64url(data)).toBe(buffer.toString('base64url'));
        expect(base64ToBytes(buffer.toString('base64url'))).toEqual(data);
        expect(base64ToBytes(buffer.toString('base64'))).toEqual(data);
      }),
    );
  });

  it('refuses hex of an odd length or with a character that is not a hex digit', () => {
    for (const text of ['a', 'abc', 'zz', '0g', 'ab ', ' ab', '+1']) expect(hexToBytes(text), text).toBeUndefined();
  });

  it("reads base64 with whitespace in it as Buffer.from(text, 'base64') does", () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 6 }), (data, cuts) => {
        let text = Buffer.from(data).toString('base64');
        for (const cut of cuts) {
          const at = cut % (text.length + 1);
          text = `${text.slice(0, at)}\n ${text.slice(at)}`;
        }
        expect(base64ToBytes(text)).toEqual(new Uint8Array(Buffer.from(text, 'base64')));
      }),
    );
  });

  it("skips what is neither alphabet's, stops at the first '=', and drops a lone last character, as Node 20 reads it", () => {
    const cases: [string, string][] = [
      ['QQ==QQ==', '41'],
      ['QU*JD', '414243'],
      ['QU\u0000JD\u00e9', '414243'],
      ['QU=JD', '41'],
      ['Q', ''],
      ['QQE', '4101'],
      ['QUJDRA=x', '41424344'],
      ['-_-_', 'fbffbf'],
      ['+/+/', 'fbffbf'],
      ['', ''],
    ];
    for (const [text, hex] of cases) expect(bytesToHex(base64ToBytes(text)), JSON.stringify(text)).toBe(hex);
  });
});
