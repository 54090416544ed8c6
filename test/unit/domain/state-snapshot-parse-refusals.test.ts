// parseDomainSnapshot refuses what a restore could not use, naming the field: a sequential id whose number is past the
// largest counter (any other id is a name), and a running clock that would resume before 1970; an import, the default
// origin, also applies the rules of creating (account ids), which a start from the store does not.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_COUNTER } from '../../../src/domain/counters.js';
import { parseDomainSnapshot } from '../../../src/domain/state-snapshot.js';
import { account, completedGeneration, snapshot } from '../../helpers/domain-snapshots.js';

const WALL = Date.UTC(2026, 5, 1);

afterEach(() => {
  vi.restoreAllMocks();
});

/** The problems parseDomainSnapshot refuses `input` with (none when it accepts it). */
function problems(input: unknown, origin?: 'import' | 'store') {
  try {
    parseDomainSnapshot(input, origin);
    return [];
  } catch (error) {
    expect(error).toMatchObject({ code: 'invalid_state' });
    return (error as { details: { problems: { field: string; message: string }[] } }).details.problems;
  }
}

/** A stored state whose one generation (charged, so the ledger agrees) has the id `id`. */
function withGenerationId(id: string) {
  return snapshot({
    ledger: [
      { id: 'led_1', seq: 1, type: 'funding', accountId: 'acct_a', amount: 10, at: 0 },
      { id: 'led_2', seq: 2, type: 'charge', accountId: 'acct_a', amount: 1, at: 0, generationId: id },
    ],
    generations: [completedGeneration(id, { plan: {} } as never)],
  });
}

describe('a sequential id in a stored state', () => {
  it('may carry a number up to the largest counter', () => {
    expect(problems(withGenerationId(`gen_${MAX_COUNTER}`), 'store')).toEqual([]);
  });

  it('is refused past it', () => {
    expect(problems(withGenerationId(`gen_${MAX_COUNTER + 1}`), 'store')).toEqual([
      { field: 'domain.generations[0].id', message: `a sequential id's number must be at most ${MAX_COUNTER}` },
    ]);
  });

  it.each([
    ['an upper-case prefix', `Gen_${MAX_COUNTER + 1}`],
    ['something before the prefix', `x-gen_${MAX_COUNTER + 1}`],
    ['something after the number', `gen_${MAX_COUNTER + 1}x`],
  ])('is a name, not a counter, with %s, whatever number it holds', (_what, id) => {
    expect(problems(withGenerationId(id), 'store')).toEqual([]);
  });
});

describe('a running clock', () => {
  it('may resume at the first instant of 1970', () => {
    vi.spyOn(Date, 'now').mockReturnValue(WALL);
    expect(problems(snapshot({ clock: { now: 0, frozen: false, offset_ms: -WALL } }))).toEqual([]);
  });

  it('is refused when it would resume before 1970', () => {
    vi.spyOn(Date, 'now').mockReturnValue(WALL);
    expect(problems(snapshot({ clock: { now: 0, frozen: false, offset_ms: -WALL - 1 } }))).toEqual([
      { field: 'domain.clock.offset_ms', message: 'puts the running clock outside the years 1970-9999' },
    ]);
  });

  it('is not refused for an offset a held clock never uses', () => {
    vi.spyOn(Date, 'now').mockReturnValue(WALL);
    expect(problems(snapshot({ clock: { now: 0, frozen: true, offset_ms: -WALL - 1 } }))).toEqual([]);
  });
});

describe('an import, the default origin', () => {
  it('refuses an account id create_account refuses, which a stored state keeps', () => {
    const s = snapshot({ accounts: [account('acct_a'), account('team.one')] });
    expect(problems(s).map((p) => p.field)).toEqual(['domain.accounts[1].id']);
    expect(problems(s, 'store')).toEqual([]);
  });
});
