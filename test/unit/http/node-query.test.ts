// The host-neutral query parser reads every query as node:querystring does (the Node host's reading).
import { parse } from 'node:querystring';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNodeQuery } from '../../../src/http/body/node-query.js';

const plain = (value: object) => JSON.parse(JSON.stringify(value));

describe('parseNodeQuery', () => {
  it.each([
    'a=1&a=2&b',
    'x=%E0%A4%A&y=+z+',
    'limit=10&cursor=abc%3D%3D',
    '=1&&c=3',
    '__proto__=1&constructor=2',
    'a[]=1&a[]=2',
    '%zz=1&a=%&b=1=2',
    'k=%C3%A9%FF%41&m=%F0%9F%A6%8A',
    'e=%e9&n=%',
    '&&&',
    `${'a=1&'.repeat(1200)}z=9`,
  ])('reads %s as node:querystring does', (raw) => {
    expect(plain(parseNodeQuery(raw))).toEqual(plain(parse(raw)));
  });

  it('agrees with node:querystring on any text built from the characters a query holds', () => {
    const char = fc.constantFrom('a', 'b', '=', '&', '%', '+', '2', 'F', 'e', 'C', '3', 'é', '🦊', ' ');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (chars) => {
        const raw = chars.join('');
        expect(plain(parseNodeQuery(raw))).toEqual(plain(parse(raw)));
      }),
      { numRuns: 5000 },
    );
  });
});
