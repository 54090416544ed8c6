// After an import, the ids the emulator creates next continue past the imported ones (generation, request and upload
// ids, generation seqs, API key ids), whichever order the records come in: no new record collides with an imported one.
import { describe, expect, it } from 'vitest';
import { importDomain } from '../../../src/domain/state-snapshot.js';
import { blankDomainContext } from '../../helpers/blank-domain-context.js';
import { completedGeneration, snapshot } from '../../helpers/domain-snapshots.js';

const KEY = { accountId: 'acct_a', name: 'k', createdAt: 0, revokedAt: null };

describe('an import into a blank context', () => {
  it('continues every sequence past the largest imported number, in whichever order the records come', () => {
    const ctx = blankDomainContext();
    importDomain(
      ctx,
      snapshot({
        keys: [
          { ...KEY, id: 7, secret: 'sk-media-first-key' },
          { ...KEY, id: 3, secret: 'sk-media-other-key' },
        ] as never,
        generations: [
          completedGeneration('gen_000009', { seq: 9, requestId: 'req_000004' }),
          completedGeneration('gen_000002', { seq: 2, requestId: 'req_000012' }),
        ],
        uploads: [
          { id: 'upl_000003', accountId: 'acct_a' } as never,
          { id: 'upl_000001', accountId: 'acct_a' } as never,
        ],
      }),
    );
    expect([ctx.ids.next('gen'), ctx.ids.next('req'), ctx.ids.next('upl')]).toEqual([
      'gen_000010',
      'req_000013',
      'upl_000004',
    ]);
    expect(ctx.generations.nextSeq()).toBe(10);
    expect(ctx.accounts.createKey({ accountId: 'acct_a', secret: 'sk-media-new-key' }, 0).id).toBe(8);
  });
});
