// The group commit: the answers that join in one turn share one commit, then each goes out with its verdict.
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { groupCommit, type Refusal } from '../../../src/store/group-commit.js';
import { StoreError } from '../../../src/store/store-errors.js';

function harness(
  commit: () => ((member: string) => Refusal | undefined) | undefined,
  { mayWrite = true, verdict = (_member: string, refusal: Refusal | undefined) => refusal?.code } = {},
) {
  const events: string[] = [];
  const logged: string[] = [];
  let scheduled: (() => void) | undefined;
  const group = groupCommit<string, string>({
    commit: () => {
      events.push('commit');
      return commit() ?? undefined;
    },
    mayWrite: () => mayWrite,
    verdict,
    defer: (settle) => {
      events.push('scheduled');
      scheduled = settle;
    },
    log: (line) => {
      logged.push(line);
      events.push(`log ${line.split(':')[0]}`);
    },
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
  return { events, logged, group, run };
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

  it('answers a failure that is not the disk’s with the message of a bug to report, and logs what was thrown', async () => {
    const answered = {
      verdict: (_member: string, refusal: Refusal | undefined) => `${refusal?.code}: ${refusal?.message}`,
    };
    const bug = new TypeError('a bug');
    const { events, logged, run } = harness(() => {
      throw bug;
    }, answered);
    await run();
    expect(logged).toEqual([`the group commit failed: ${bug.stack}`]);
    expect(events.at(-1)).toBe(
      'release c internal_error: The emulator hit an internal error. This is a bug in the emulator; please report it with the request.',
    );
    const thrown = harness(() => {
      throw 'not an Error';
    }, answered);
    await thrown.run();
    expect(thrown.logged).toEqual(['the group commit failed: not an Error']);
  });

  it('lets every member go as it is, without a commit, when nothing may be written (a closed store)', async () => {
    const { events, run } = harness(() => {}, { mayWrite: false });
    await run();
    expect(events).toEqual(['scheduled', 'release a as is', 'release b as is', 'release c as is']);
  });

  it('refuses only the members the commit names, each with its own refusal', async () => {
    const { events, run } = harness(
      () => (member) => (member === 'b' ? new StoreError('state_not_loaded', 'not loaded') : undefined),
    );
    await run();
    expect(events.slice(1)).toEqual(['commit', 'release a as is', 'release b state_not_loaded', 'release c as is']);
  });

  it('releases every member when judging one of them fails: that one as it is, the others with their verdicts', async () => {
    const { events, run } = harness(
      () => {
        throw new DomainError('storage_full', 'full');
      },
      {
        verdict: (member, refusal) => {
          if (member === 'b') throw new Error('no verdict');
          return refusal?.code;
        },
      },
    );
    await run();
    expect(events.slice(1)).toEqual([
      'commit',
      'log could not judge a response after the group commit',
      'release a storage_full',
      'release b as is',
      'release c storage_full',
    ]);
  });

  it('schedules a new commit for the members that join after a settle', async () => {
    const { events, group, run } = harness(() => {});
    await run();
    const late = group.join('d').then((answer) => events.push(`release d ${answer ?? 'as is'}`));
    expect(group.size).toBe(1);
    group.settle();
    await late;
    expect(events.slice(5)).toEqual(['scheduled', 'commit', 'release d as is']);
  });
});
