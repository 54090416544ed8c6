// Both hosts' zlib counts (Node's node:zlib, the web platform's DecompressionStream) agree, stop past the limit and refuse bad data.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type InflatedLength, streamInflatedLength } from '../../../src/infra/inflated-length.js';
import { nodeInflatedLength } from '../../../src/infra/node/inflated-length.js';

const hosts: [string, InflatedLength][] = [
  ['node:zlib', nodeInflatedLength],
  ['DecompressionStream', streamInflatedLength],
];

describe.each(hosts)('inflated length (%s)', (_, inflatedLength) => {
  const data = new Uint8Array(300_000).map((_, i) => i % 251);
  const deflated = deflateSync(data);

  it('counts what the parts inflate to, the stream split anywhere', async () => {
    const cut = Math.floor(deflated.length / 3);
    expect(await inflatedLength([deflated.subarray(0, cut), deflated.subarray(cut)], 1_000_000)).toBe(300_000);
  });

  it('stops once past the limit (a bomb costs what was decoded up to there)', async () => {
    const bomb = deflateSync(new Uint8Array(50_000_000));
    const counted = await inflatedLength([bomb], 100_000);
    expect(counted).toBeGreaterThan(100_000);
    expect(counted).toBeLessThan(50_000_000);
  });

  it('answers an Error for data that is not zlib', async () => {
    expect(await inflatedLength([new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])], 1000)).toBeInstanceOf(Error);
  });
});
