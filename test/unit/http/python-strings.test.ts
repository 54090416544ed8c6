// Strings as Python's json module reads them and pydantic counts them: escapes, errors and their positions, code points.
import { describe, expect, it } from 'vitest';
import { decodePythonJson } from '../../../src/http/validation/python-json.js';
import { codePoints } from '../../../src/http/validation/pydantic-types.js';

describe('decodePythonJson strings', () => {
  it('reads runs of plain characters between escapes exactly', () => {
    const text = '"ab\\"cd\\\\ef\\u00e9gh\\n\\ud83d\\ude00ij"';
    expect(decodePythonJson(text)).toEqual({ ok: true, value: 'ab"cd\\ef\u00e9gh\n\ud83d\ude00ij' });
  });

  it('reads a string of 15 million characters whole', () => {
    const prompt = 'a'.repeat(15_000_000);
    const decoded = decodePythonJson(`{"prompt":"${prompt}x\\ty"}`);
    expect(decoded.ok).toBe(true);
    const value = (decoded as { value: Map<string, string> }).value.get('prompt');
    expect(value?.length).toBe(15_000_003);
    expect(value?.endsWith('ax\ty')).toBe(true);
  });

  it('names the position of a control character, an unterminated string and a bad escape', () => {
    expect(decodePythonJson('"abc\u0001"')).toEqual({ ok: false, msg: 'Invalid control character at', pos: 4 });
    expect(decodePythonJson('["abcdef')).toEqual({ ok: false, msg: 'Unterminated string starting at', pos: 1 });
    expect(decodePythonJson('"abc\\')).toEqual({ ok: false, msg: 'Unterminated string starting at', pos: 0 });
    expect(decodePythonJson('"ab\\x"')).toEqual({ ok: false, msg: 'Invalid \\escape', pos: 3 });
  });
});

describe('codePoints', () => {
  it('counts a surrogate pair as one code point', () => {
    expect(codePoints('a\ud83d\ude00b')).toBe(3);
    expect(codePoints('\ud83d\ude00'.repeat(10), 10)).toBe(10);
  });

  it('answers more than the cap for a string over twice the cap, without an exact count', () => {
    expect(codePoints('\ud83d\ude00'.repeat(11), 10)).toBe(11);
    expect(codePoints('a'.repeat(21), 10)).toBeGreaterThan(10);
    expect(codePoints('a'.repeat(20), 10)).toBe(20);
  });
});
