// The change tracker's cheap look (hasChanges) agrees with the batch it would build, for each kind of change.
import { afterEach, describe, expect, it } from 'vitest';
import type { DomainContext } from '../../../../src/domain/context.js';
import { ControlState } from '../../../../src/emulation/plane-state.js';
import { recordSources } from '../../../../src/emulation/state/record-sources.js';
import { ChangeTracker, isEmpty } from '../../../../src/emulation/state/state-changes.js';
import type { Emulator } from '../../../../src/index.js';
import { openSqliteStore, type SqliteStore } from '../../../../src/infra/sqlite-store.js';
import { createEmulatorWith, runtimeOf } from '../../../../src/testing.js';

const opened: { emulator: Emulator; store: SqliteStore }[] = [];
afterEach(async () => {
  // The emulator first: its last commit reads the context, whose stores now read this store.
  for (const { emulator, store } of opened.splice(0)) {
    await emulator.close();
    store.close();
  }
});

/** A tracker over a live emulator's context, writing to a private store of its own (nothing goes over HTTP). */
function tracked() {
  const emulator = createEmulatorWith({ seed: 1, timing: 'manual' });
  const store = openSqliteStore({ path: '', sync: 'off' });
  opened.push({ emulator, store });
  const ctx: DomainContext = runtimeOf(emulator).context();
  const control = new ControlState();
  const tracker = new ChangeTracker(
    ctx,
    control,
    recordSources(store, () => {}),
  );
  /** The tracker's verdict, then the batch's, committed: both must say the same. */
  const commit = () => {
    const looked = tracker.hasChanges(control);
    const { batch, accept } = tracker.next(control, false);
    if (!isEmpty(batch)) store.commit(batch);
    accept();
    return [looked, !isEmpty(batch)];
  };
  return { ctx, control, tracker, commit };
}

describe('ChangeTracker.hasChanges', () => {
  it('says no change when nothing moved, and after every commit', () => {
    const { commit } = tracked();
    expect(commit()).toEqual([false, false]);
    expect(commit()).toEqual([false, false]);
  });

  it.each([
    ['an id used up by a refused request', ({ ctx }: ReturnType<typeof tracked>) => void ctx.ids.next('gen')],
    [
      'a ledger entry',
      ({ ctx }: ReturnType<typeof tracked>) =>
        void ctx.ledger.append({ type: 'funding', accountId: 'acct_000001', amount: 5, at: ctx.clock.now() }),
    ],
    ['a clock moved forward', ({ ctx }: ReturnType<typeof tracked>) => ctx.clock.advanceBy(1000)],
    [
      'a new account',
      ({ ctx }: ReturnType<typeof tracked>) => void ctx.accounts.createAccount('acct_x', 'X', ctx.clock.now()),
    ],
    [
      'a changed timing profile',
      ({ ctx }: ReturnType<typeof tracked>) => {
        ctx.settings.timing = { ...ctx.settings.timing, default: { mode: 'instant' } } as typeof ctx.settings.timing;
      },
    ],
    [
      'a scenario loaded on the plane',
      ({ control }: ReturnType<typeof tracked>) => {
        control.scenario = { definition: { name: 'x' }, loadedAt: 0, ruleIds: [], stepsRun: 0 } as never;
      },
    ],
  ])('sees %s, as the batch does, and nothing once it is committed', (_name, change) => {
    const t = tracked();
    expect(t.commit()).toEqual([false, false]);
    change(t);
    expect(t.commit()).toEqual([true, true]);
    expect(t.commit()).toEqual([false, false]);
  });
});
