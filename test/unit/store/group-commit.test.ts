// The group commit: the responses that join in one turn share one commit, then each goes out with its verdict.
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { groupCommit, type Refusal } from '../../../src/store/group-commit.js';
import type { Release } from '../../../src/http/response-pipeline.js';

function harness(commit: () => void) {
  const events: string[] = [];
  const group = groupCommit({
    commit: () => {
      events.push('commit');
      commit();
    },
    mayWrite: () => true,
    verdict: (_res, refusal: Refusal | undefined) => refusal?.code,
    log: (line) => events.push(`log ${line.split(':')[0]}`),
  });
  const released = new Promise<void>((resolve) => {
    let left = 3;
    const release: Release = (res, replacement) => {
      events.push(`release ${(res as unknown as { name: string }).name} ${replacement ?? 'as is'}`);
      if (--left === 0) resolve();
    };
    for (const name of ['a', 'b', 'c']) group.join({ name, destroy: () => {} } as unknown as Response, release);
  });
  return { events, group, released };
}

describe('groupCommit', () => {
  it('commits once for every response that joined in the turn, then releases each after it', async () => {
    const { events, group, released } = harness(() => {});
    expect([group.size, events]).toEqual([3, []]);
    await released;
    expect(events).toEqual(['commit', 'release a as is', 'release b as is', 'release c as is']);
    expect(group.size).toBe(0);
  });

  it("gives every member the refusal of the group's failed commit", async () => {
    const { events, released } = harness(() => {
      throw new DomainError('storage_full', 'full');
    });
    await released;
    expect(events).toEqual(['commit', 'release a storage_full', 'release b storage_full', 'release c storage_full']);
  });

  it('answers every member with internal_error when the commit fails for another reason, and logs it', async () => {
    const { events, released } = harness(() => {
      throw new TypeError('a bug');
    });
    await released;
    expect(events).toEqual([
      'commit',
      'log the group commit failed',
      'release a internal_error',
      'release b internal_error',
      'release c internal_error',
    ]);
  });
});
