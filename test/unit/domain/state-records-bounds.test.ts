// countProblems and headroomProblems on their own: an import may bring exactly as many keys and accounts as creating allows, and every sequential id number it brings (generation, request, upload) must leave room for what follows; other ids are not counters.
import { describe, expect, it } from 'vitest';
import { MAX_ACCOUNTS, MAX_KEYS } from '../../../src/domain/accounts.js';
import { IMPORTED_COUNTER_RULE, MAX_IMPORTED_COUNTER } from '../../../src/domain/counters.js';
import { parseDomainSnapshot } from '../../../src/domain/state-snapshot.js';
import { countProblems, headroomProblems } from '../../../src/domain/state-records.js';
import { completedGeneration, snapshot } from '../../helpers/domain-snapshots.js';

const PAST = MAX_IMPORTED_COUNTER + 1;
const generation = (id: string, requestId?: string) => completedGeneration(id, { requestId });
const upload = (id: string) => ({ id, accountId: 'acct_a' }) as never;

const pastRoom = (field: string) => ({ field: `domain.${field}`, message: `${IMPORTED_COUNTER_RULE} (got ${PAST})` });

describe('countProblems: an import brings at most as many keys and accounts as creating allows', () => {
  it('accepts exactly the bound of accounts and of keys', () => {
    const input = { accounts: new Array(MAX_ACCOUNTS).fill({}), keys: new Array(MAX_KEYS).fill({}) };
    expect(countProblems(input, 'import')).toEqual([]);
  });

  it('refuses one more of each, naming both', () => {
    const input = { accounts: new Array(MAX_ACCOUNTS + 1).fill({}), keys: new Array(MAX_KEYS + 1).fill({}) };
    expect(countProblems(input, 'import').map((p) => p.field)).toEqual(['domain.accounts', 'domain.keys']);
  });

  it('finds no count to refuse in a document that is null, and the import then refuses it as not an export', () => {
    expect(countProblems(null, 'import')).toEqual([]);
    expect(() => parseDomainSnapshot(null, 'import')).toThrow(
      expect.objectContaining({ code: 'invalid_state', message: expect.stringMatching(/^The state is not an export/) }),
    );
  });
});

describe('headroomProblems: sequential id numbers leave room for the ids created after an import', () => {
  it('names a request id or an upload id whose number leaves no room', () => {
    const s = snapshot({
      generations: [generation('gen_1', 'req_1'), generation('gen_2', `req_${PAST}`)],
      uploads: [upload('upl_1'), upload(`upl_${PAST}`)],
    });
    expect(headroomProblems(s, 'import')).toEqual([pastRoom('generations[1].requestId'), pastRoom('uploads[1].id')]);
  });

  it('accepts the largest accepted number in every sequential id', () => {
    const last = MAX_IMPORTED_COUNTER;
    const s = snapshot({
      generations: [generation(`gen_${last}`, `req_${last}`)],
      uploads: [upload(`upl_${last}`)],
    });
    expect(headroomProblems(s, 'import')).toEqual([]);
  });

  it.each([
    ['does not start with a lower-case prefix', `Gen_${PAST}`, `Upl_${PAST}`],
    ['starts with something else', `x-gen_${PAST}`, `1upl_${PAST}`],
    ['goes on after the number', `gen_${PAST}-copy`, `upl_${PAST}x`],
  ])('takes an id that %s as a name, not a counter, whatever number it holds', (_what, generationId, uploadId) => {
    const s = snapshot({ generations: [generation(generationId, generationId)], uploads: [upload(uploadId)] });
    expect(headroomProblems(s, 'import')).toEqual([]);
  });
});
