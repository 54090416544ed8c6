// Pricing: every figure of the spec, every option value, exact arithmetic, and the rational helpers under it.
import { describe, it, expect } from 'vitest';
import type { ModelEntry } from '../../../src/domain/catalogue-schema.js';
import { fixtureModel } from '../../helpers/catalogue.js';
import { defaultPrice, maxPrice, quote, resolveParams } from '../../../src/domain/pricing.js';
import {
  ceil,
  compare,
  formatRational,
  parsePositiveInteger,
  parseRational,
  product,
  rational,
} from '../../../src/domain/rational.js';

const model = fixtureModel;
const A = model('motion-lite-v1');
const B = model('keyframe-pro-v2');
const price = (m: ModelEntry, params: Record<string, string> = {}) => quote(m, params).credits;

/** Every combination of a model's option values, as params objects. */
function combinations(m: ModelEntry): Record<string, string>[] {
  return m.option_groups.reduce<Record<string, string>[]>(
    (acc, group) => acc.flatMap((params) => group.values.map((value) => ({ ...params, [group.name]: value }))),
    [{}],
  );
}

const ceilDiv = (num: bigint, den: bigint) => (num + den - 1n) / den;

describe('Model A (motion-lite-v1) prices', () => {
  it('charges 88 credits for the default configuration', () => {
    expect(defaultPrice(A)).toBe(88);
  });

  // 21.8 x seconds, rounded up: the spec's range is 88 to 327.
  const durations: [string, number][] = [
    ['4', 88],
    ['5', 109],
    ['6', 131],
    ['7', 153],
    ['8', 175],
    ['9', 197],
    ['10', 218],
    ['11', 240],
    ['12', 262],
    ['13', 284],
    ['14', 306],
    ['15', 327],
  ];
  it.each(durations)('charges duration %s at %i credits', (duration, credits) => {
    expect(price(A, { duration })).toBe(credits);
  });

  it.each([
    ['480p', 88],
    ['720p', 197],
  ] as const)('charges quality %s at %i credits', (quality, credits) => {
    expect(price(A, { quality })).toBe(credits);
  });

  it.each([
    ['1', 88],
    ['2', 175],
    ['3', 262],
    ['4', 349],
  ] as const)('charges count %s at %i credits', (count, credits) => {
    expect(price(A, { count })).toBe(credits);
  });

  it.each(['16:9', '9:16', '1:1', '4:3', '3:4', '21:9'])('does not change the price for size %s', (size) => {
    expect(price(A, { size })).toBe(88);
  });

  it.each(['off', 'on'])('does not change the price for audio %s', (audio) => {
    expect(price(A, { audio })).toBe(88);
  });

  it('covers exactly the spec ranges: duration 88..327, quality 88..197, count 88..349', () => {
    expect(durations.map(([, c]) => c)).toEqual(A.option_groups[0].values.map((duration) => price(A, { duration })));
    expect(price(A, { duration: '15' })).toBe(327);
    expect(price(A, { quality: '720p' })).toBe(197);
    expect(price(A, { count: '4' })).toBe(349);
  });

  it('returns the full quote with the multiplier that applied', () => {
    expect(quote(A, { quality: '720p', audio: 'on' })).toEqual({
      credits: 197,
      unit: 'second',
      units: 4,
      count: 1,
      credits_per_unit: '21.8',
      multipliers: { quality: '9/4' },
      params: { duration: '4', quality: '720p', size: '16:9', audio: 'on', count: '1' },
    });
  });
});

describe('Model B (keyframe-pro-v2) prices', () => {
  it('charges 763 credits for the default configuration', () => {
    expect(defaultPrice(B)).toBe(763);
  });

  // 763/3 x seconds, rounded up: the spec's range is 763 to 3,815.
  const durations: [string, number][] = [
    ['3', 763],
    ['4', 1018],
    ['5', 1272],
    ['6', 1526],
    ['7', 1781],
    ['8', 2035],
    ['9', 2289],
    ['10', 2544],
    ['11', 2798],
    ['12', 3052],
    ['13', 3307],
    ['14', 3561],
    ['15', 3815],
  ];
  it.each(durations)('charges duration %s at %i credits', (duration, credits) => {
    expect(price(B, { duration })).toBe(credits);
  });

  it.each([
    ['1', 763],
    ['2', 1526],
    ['3', 2289],
    ['4', 3052],
  ] as const)('charges count %s at %i credits', (count, credits) => {
    expect(price(B, { count })).toBe(credits);
  });

  it.each(['16:9', '9:16', '1:1'])('does not change the price for size %s', (size) => {
    expect(price(B, { size })).toBe(763);
  });

  it.each(['off', 'on'])('does not change the price for audio %s', (audio) => {
    expect(price(B, { audio })).toBe(763);
  });

  it('returns the full quote with no multipliers', () => {
    expect(quote(B, { duration: '15', count: '4' })).toEqual({
      credits: 15260,
      unit: 'second',
      units: 15,
      count: 4,
      credits_per_unit: '763/3',
      multipliers: {},
      params: { duration: '15', size: '16:9', audio: 'off', count: '4' },
    });
  });
});

describe('exactness', () => {
  it('prices every Model A combination as an integer equal to a BigInt recomputation', () => {
    const all = combinations(A);
    expect(all).toHaveLength(12 * 2 * 6 * 2 * 4);
    for (const params of all) {
      // 21.8 = 218/10 and 9/4 share the denominator 40 with the 480p factor 4/4.
      const q = params.quality === '720p' ? 9n : 4n;
      const expected = ceilDiv(218n * BigInt(params.duration) * BigInt(params.count) * q, 40n);
      const credits = price(A, params);
      expect(Number.isInteger(credits)).toBe(true);
      expect(BigInt(credits)).toBe(expected);
    }
  });

  it('prices every Model B combination as an integer equal to a BigInt recomputation', () => {
    const all = combinations(B);
    expect(all).toHaveLength(13 * 3 * 2 * 4);
    for (const params of all) {
      const expected = ceilDiv(763n * BigInt(params.duration) * BigInt(params.count), 3n);
      const credits = price(B, params);
      expect(Number.isInteger(credits)).toBe(true);
      expect(BigInt(credits)).toBe(expected);
    }
  });

  it('never lowers the price when the duration grows, at any quality and count', () => {
    for (const m of [A, B]) {
      const durations = m.option_groups.find((g) => g.name === 'duration')!.values;
      for (const params of combinations(m).filter((p) => p.duration === durations[0])) {
        const prices = durations.map((duration) => price(m, { ...params, duration }));
        for (let i = 1; i < prices.length; i++) expect(prices[i]).toBeGreaterThan(prices[i - 1]);
      }
    }
  });

  it('does not round up a float error: 0.1 x 3 seconds x 10 outputs is 3, where floats say 4', () => {
    expect(Math.ceil(0.1 * 3 * 10)).toBe(4);
    const synthetic: ModelEntry = {
      ...A,
      option_groups: [
        { name: 'duration', values: ['3'], default: '3' },
        { name: 'count', values: ['10'], default: '10' },
      ],
      price: { ...A.price, credits_per_unit: '0.1', multipliers: {} },
    };
    expect(defaultPrice(synthetic)).toBe(3);
  });

  it('gives the highest price any combination reaches', () => {
    expect(maxPrice(A)).toBe(BigInt(Math.max(...combinations(A).map((p) => price(A, p)))));
    expect(maxPrice(A)).toBe(2943n);
    expect(maxPrice(B)).toBe(15260n);
  });

  it('refuses a units value that is not a positive integer instead of guessing', () => {
    expect(() => quote(A, { duration: 'four' })).toThrow(RangeError);
    expect(() => quote(A, { duration: '04' })).toThrow(RangeError);
  });
});

describe('example models', () => {
  const cases: [string, Record<string, string>, number][] = [
    ['still-sketch-v1', {}, 4],
    ['still-sketch-v1', { size: '16:9' }, 4],
    ['still-sketch-v1', { count: '4' }, 16],
    ['tone-music-v1', {}, 15],
    ['tone-music-v1', { duration: '5' }, 8],
    ['tone-music-v1', { duration: '30', count: '2' }, 90],
    ['mesh-blocks-v1', {}, 40],
    ['mesh-blocks-v1', { detail: 'high' }, 80],
    ['mesh-blocks-v1', { detail: 'high', count: '2' }, 160],
  ];
  it.each(cases)('prices %s with %j at %i credits', (slug, params, credits) => {
    expect(price(model(slug), params)).toBe(credits);
  });

  it('reports the unit of each model', () => {
    expect(quote(model('still-sketch-v1')).unit).toBe('image');
    expect(quote(model('tone-music-v1')).unit).toBe('second');
    expect(quote(model('mesh-blocks-v1'), { detail: 'high' })).toMatchObject({
      unit: 'asset',
      units: 1,
      multipliers: { detail: '2' },
    });
  });
});

describe('resolveParams', () => {
  it('fills every group in catalogue order with defaults', () => {
    const resolved = resolveParams(A, { count: '2', quality: '720p' });
    expect(resolved).toEqual({ duration: '4', quality: '720p', size: '16:9', audio: 'off', count: '2' });
    expect(Object.keys(resolved)).toEqual(['duration', 'quality', 'size', 'audio', 'count']);
  });

  it('drops keys the model does not have and reads own properties only', () => {
    const params = JSON.parse('{"foo":"1","__proto__":{"duration":"15"}}') as Record<string, string>;
    expect(resolveParams(B, params)).toEqual({ duration: '3', size: '16:9', audio: 'off', count: '1' });
    expect(resolveParams(B)).toEqual({ duration: '3', size: '16:9', audio: 'off', count: '1' });
  });
});

describe('rational helpers', () => {
  it('parses decimals and fractions exactly, in lowest terms', () => {
    expect(parseRational('21.8')).toEqual({ num: 109n, den: 5n });
    expect(parseRational('763/3')).toEqual({ num: 763n, den: 3n });
    expect(parseRational('9/4')).toEqual({ num: 9n, den: 4n });
    expect(parseRational('1.5/2')).toEqual({ num: 3n, den: 4n });
    expect(parseRational('0')).toEqual({ num: 0n, den: 1n });
    expect(parseRational('40')).toEqual({ num: 40n, den: 1n });
  });

  it('refuses text that is not a decimal or fraction, and a zero denominator', () => {
    for (const bad of ['', 'abc', '-1', '1e3', '.5', '1/', '1/0', ' 1'])
      expect(() => parseRational(bad)).toThrow(RangeError);
  });

  it('names the price text it refuses, which the catalogue loader passes on to whoever wrote it', () => {
    expect(() => parseRational('21,8')).toThrow(new RangeError('not a decimal or fraction: "21,8"'));
  });

  it('reads a units or count value as a positive integer in its one spelling, and names any other', () => {
    expect(parsePositiveInteger('15')).toBe(15n);
    for (const bad of ['0', '04', '-1', '1.5', ''])
      expect(() => parsePositiveInteger(bad)).toThrow(new RangeError(`not a positive integer: ${JSON.stringify(bad)}`));
  });

  it('rounds up exactly, also below zero', () => {
    expect(ceil(rational(436n, 5n))).toBe(88n);
    expect(ceil(rational(88n))).toBe(88n);
    expect(ceil(rational(0n))).toBe(0n);
    expect(ceil(rational(-7n, 2n))).toBe(-3n);
    expect(ceil(rational(7n, -2n))).toBe(-3n);
  });

  it('multiplies, compares and prints', () => {
    const p = product([parseRational('21.8'), rational(4n), parseRational('9/4')]);
    expect(formatRational(p)).toBe('981/5');
    expect(formatRational(product([parseRational('763/3'), rational(3n)]))).toBe('763');
    expect(compare(parseRational('0.5'), parseRational('1/2'))).toBe(0);
    expect(compare(parseRational('1/3'), parseRational('0.34'))).toBe(-1);
    expect(compare(parseRational('2'), parseRational('1.99'))).toBe(1);
  });
});

describe('a catalogue written by hand', () => {
  /** A model with one option group of the given values (in that order) priced by `multipliers`, nothing else. */
  const oneGroup = (values: string[], multipliers: Record<string, string>, creditsPerUnit = '10'): ModelEntry => ({
    ...A,
    option_groups: [{ name: 'tier', values, default: values[0] }],
    price: { unit: 'output', credits_per_unit: creditsPerUnit, multipliers: { tier: multipliers }, rounding: 'ceil' },
  });

  it('finds the highest price whatever order the option values are listed in', () => {
    const descending: ModelEntry = {
      ...A,
      option_groups: A.option_groups.map((g) => ({ ...g, values: [...g.values].reverse() })),
    };
    expect(maxPrice(descending)).toBe(2943n);
    const dearestInTheMiddle = oneGroup(['basic', 'studio', 'plus'], { basic: '1', studio: '5/2', plus: '3/2' });
    expect(maxPrice(dearestInTheMiddle)).toBe(25n);
    expect(price(dearestInTheMiddle, { tier: 'studio' })).toBe(25);
  });

  it('counts a value without a multiplier at factor 1 when it is the dearest', () => {
    expect(maxPrice(oneGroup(['half', 'full'], { half: '1/2' }))).toBe(10n);
  });

  it('prices at the largest safe integer, and refuses to quote one past it instead of rounding', () => {
    expect(price(oneGroup(['x'], {}, '9007199254740991'))).toBe(Number.MAX_SAFE_INTEGER);
    expect(price(oneGroup(['x'], {}, '9007199254740990.5'))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => quote({ ...oneGroup(['x'], {}, '9007199254740992'), slug: 'huge' })).toThrow(
      new RangeError("price of model 'huge' (9007199254740992) exceeds the largest safe integer"),
    );
    expect(maxPrice(oneGroup(['x', 'y'], { y: '2' }, '9007199254740991'))).toBe(18014398509481982n);
  });
});

describe('a price table (a calibration, or the catalogue’s price.table)', () => {
  const tabled = (table: { params: Record<string, string>; credits: number }[]): ModelEntry => ({
    ...A,
    price: { ...A.price, table },
  });

  it('charges a listed option set the table’s figure, and the rest by the formula', () => {
    const m = tabled([{ params: { duration: '5' }, credits: 111 }]);
    expect(quote(m, { duration: '5' })).toMatchObject({ credits: 111, units: 5, credits_per_unit: '21.8' });
    expect(price(m, { duration: '6' })).toBe(131);
    expect(price(m)).toBe(88);
  });

  it('takes the groups a row leaves out at their default', () => {
    const m = tabled([{ params: { duration: '5' }, credits: 111 }]);
    // 720p is not the default quality, so the row does not match and the formula prices it: 21.8 x 5 x 9/4.
    expect(price(m, { duration: '5', quality: '720p' })).toBe(246);
    expect(price(m, { duration: '5', quality: '480p', count: '1' })).toBe(111);
  });

  it('matches a row on every value it names', () => {
    const m = tabled([
      { params: { duration: '5', quality: '720p' }, credits: 300 },
      { params: { quality: '720p' }, credits: 200 },
    ]);
    expect(price(m, { duration: '5', quality: '720p' })).toBe(300);
    expect(price(m, { quality: '720p' })).toBe(200);
    expect(price(m, { duration: '5' })).toBe(109);
  });

  it('charges nothing for an option set the table lists as free', () => {
    expect(price(tabled([{ params: {}, credits: 0 }]))).toBe(0);
  });
});
