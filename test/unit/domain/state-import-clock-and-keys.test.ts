// An import puts back the clock as the state has it (held at its reading, or running at wall time plus its offset) and
// each key's revocation: a revoked key stays revoked at its time, a key with revokedAt null or left out stays active.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DomainSnapshot } from '../../../src/domain/domain-snapshot.js';
import { importDomain, parseDomainSnapshot } from '../../../src/domain/state-snapshot.js';
import { blankDomainContext } from '../../helpers/blank-domain-context.js';
import { snapshot } from '../../helpers/domain-snapshots.js';

const WALL = Date.UTC(2026, 5, 1);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('an import puts back the clock', () => {
  it('held at its reading when the state held it, whatever the offset says', () => {
    vi.spyOn(Date, 'now').mockReturnValue(WALL);
    const ctx = blankDomainContext(5);
    importDomain(ctx, snapshot({ clock: { now: WALL - 60_000, frozen: true, offset_ms: 1234 } }));
    expect([ctx.clock.frozen, ctx.clock.now()]).toEqual([true, WALL - 60_000]);
  });

  it('running at wall time plus its offset, so an advance made before the export is kept', () => {
    vi.spyOn(Date, 'now').mockReturnValue(WALL);
    const ctx = blankDomainContext(5);
    importDomain(ctx, snapshot({ clock: { now: 0, frozen: false, offset_ms: 3_600_000 } }));
    expect([ctx.clock.frozen, ctx.clock.now()]).toEqual([false, WALL + 3_600_000]);
  });
});

describe('an import puts back each key’s revocation', () => {
  it('keeps a revoked key revoked at its time, and a key with revokedAt null or left out active', () => {
    const key = { accountId: 'acct_a', name: 'k', createdAt: 10 };
    const parsed = parseDomainSnapshot(
      snapshot({
        keys: [
          { ...key, id: 1, secret: 'sk-media-active-key', revokedAt: null },
          { ...key, id: 2, secret: 'sk-media-revoked-key', revokedAt: 99 },
          { ...key, id: 3, secret: 'sk-media-hand-written-key' },
        ] as never,
      }) as unknown,
      'import',
    ) as DomainSnapshot;
    const ctx = blankDomainContext();
    importDomain(ctx, parsed);
    expect(ctx.accounts.listKeys().map((k) => [k.id, k.revokedAt])).toEqual([
      [1, null],
      [2, 99],
      [3, null],
    ]);
    expect(ctx.accounts.authenticate('Bearer sk-media-hand-written-key').id).toBe(3);
    expect(() => ctx.accounts.authenticate('Bearer sk-media-revoked-key')).toThrow(
      expect.objectContaining({ code: 'revoked_api_key' }),
    );
  });
});
