// The group commit: the answers that join in one turn share one commit, then each goes out with its verdict.
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { groupCommit, type Refusal } from '../../../src/store/group-commit.js';

function harness(commit: () => void) {
  const events: string[] = [];
  let scheduled: (() => void) | undefined;
  const group = groupCommit<string, string>({
    commit: () => {
      events.push('commit');
      commit();
    },
    mayWrite: () => true,
    verdict: (_member, refusal: Refusal | undefined) => refusal?.code,
    defer: (settle) => {
      events.push('scheduled');
      scheduled = settle;
    },
    log: (line) => events.push(`log ${line.split(':')[0]}`),
  });
  const released = Promise.all(
    ['a', 'b', 'c'].map((name) =>
      group.join(name).then((answer) => events.push(`release ${name} ${answer ?? 'as is'}`)),
    ),
  );
  const run = async () => {
    scheduled?.();
    await released;
  };
  return { events, group, run };
}

describe('groupCommit', () => {
  it('commits once for every member that joined in the turn, scheduled by the first, then releases each after it', async () => {
    const { events, group, run } = harness(() => {});
    expect([group.size, events]).toEqual([3, ['scheduled']]);
    await run();
    expect(events).toEqual(['scheduled', 'commit', 'release a as is', 'release b as is', 'release c as is']);
    expect(group.size).toBe(0);
  });

  it("gives every member the refusal of the group's failed commit", async () => {
    const { events, run } = harness(() => {
      throw new DomainError('storage_full', 'full');
    });
    await run();
    expect(events.slice(1)).toEqual([
      'commit',
      'release a storage_full',
      'release b storage_full',
      'release c storage_full',
    ]);
  });

  it('answers every member with internal_error when the commit fails for another reason, and logs it', async () => {
    const { events, run } = harness(() => {
      throw new TypeError('a bug');
    });
    await run();
    expect(events.slice(1)).toEqual([
      'commit',
      'log the group commit failed',
      'release a internal_error',
      'release b internal_error',
      'release c internal_error',
    ]);
  });
});
