// Durations as scenario files and control calls write them.
import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS, parseDuration } from '../../src/domain/durations.js';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['10m', 600_000],
    ['1h', 3_600_000],
    ['1d', 86_400_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
    ['1500', 1500],
    [' 2M ', 120_000],
    ['1h 30m', 5_400_000],
    [' 1 H\t30 m\n', 5_400_000],
  ])('reads %j as %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it('takes numbers as milliseconds', () => {
    expect(parseDuration(42)).toBe(42);
  });

  it.each(['', 'soon', '10 minutes', '-5s', '5x', 's', '1h5', 'x5'])(
    'refuses %j with invalid_duration naming the field',
    (text) => {
      expect(() => parseDuration(text, 'by')).toThrow(
        expect.objectContaining({
          code: 'invalid_duration',
          message: expect.stringContaining('by must be a duration'),
        }),
      );
    },
  );

  it('refuses negative and non-finite numbers, naming the field and the number', () => {
    expect(() => parseDuration(-1, 'by')).toThrow(
      expect.objectContaining({
        code: 'invalid_duration',
        message: 'by must be a duration like "30s" or a number of milliseconds >= 0, got -1.',
      }),
    );
    expect(() => parseDuration(Number.NaN)).toThrow(expect.objectContaining({ code: 'invalid_duration' }));
  });

  it('refuses durations past 100 years, which would push the clock beyond what a date can hold', () => {
    expect(parseDuration(MAX_DURATION_MS)).toBe(MAX_DURATION_MS);
    expect(() => parseDuration(1e300, 'by')).toThrow(
      expect.objectContaining({ code: 'invalid_duration', message: expect.stringContaining('at most 100 years') }),
    );
    expect(() => parseDuration('100000000d', 'by')).toThrow(expect.objectContaining({ code: 'invalid_duration' }));
  });

  it('says what was too long as it was given: a number as is, a text in quotes', () => {
    expect(() => parseDuration(MAX_DURATION_MS + 1, 'by')).toThrow(
      expect.objectContaining({
        code: 'invalid_duration',
        message: `by must be at most 100 years (${MAX_DURATION_MS} ms), got ${MAX_DURATION_MS + 1}.`,
      }),
    );
    expect(() => parseDuration('36501d', 'within')).toThrow(
      expect.objectContaining({
        code: 'invalid_duration',
        message: `within must be at most 100 years (${MAX_DURATION_MS} ms), got "36501d".`,
      }),
    );
  });
});
