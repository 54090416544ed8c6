// The journal as a kept section: checked whole before anything changes, installed whole, its marks the journal's own.
import { describe, expect, it } from 'vitest';
import { JournalSection } from '../../../../src/emulation/journal/journal-section.js';
import { ControlState } from '../../../../src/emulation/plane-state.js';

const entry = (id: number) => ({
  id,
  at: 0,
  method: 'GET',
  path: '/v1/media/generations',
  keyId: 1,
  idempotencyKey: null,
  status: 200,
  latencyMs: 1,
  faultId: null,
});

function recorded(count: number) {
  const state = new ControlState();
  for (let i = 0; i < count; i++) {
    const { id: _id, ...rest } = entry(0);
    state.journal.record(rest);
  }
  return state;
}

describe('JournalSection', () => {
  it('gives the journal’s marks and the entries after an id, oldest first', () => {
    const section = new JournalSection(recorded(3));
    expect([section.lastId(), section.firstId()]).toEqual([3, 1]);
    expect(section.after(1).map((e) => e.id)).toEqual([2, 3]);
    expect(section.current()).toMatchObject({ seq: 3, entries: [{ id: 1 }, { id: 2 }, { id: 3 }] });
  });

  it.each([
    ['no entries array', { seq: 1 }, 'control.journal.entries: is required'],
    ['a seq past 2^31', { seq: 2 ** 31, entries: [] }, 'control.journal.seq'],
    ['an entry id of 0', { seq: 1, entries: [entry(0)] }, 'control.journal.entries[0].id'],
  ])('refuses %s with invalid_state naming the field, and changes nothing', (_name, value, field) => {
    const state = recorded(2);
    expect(() => new JournalSection(state).prepare(value, 'import')).toThrow(
      expect.objectContaining({ code: 'invalid_state', message: expect.stringContaining(field) }),
    );
    expect(state.journal.lastId).toBe(2);
  });

  it('replaces the journal only when installed, and numbers new entries after the imported seq', () => {
    const state = recorded(2);
    const install = new JournalSection(state).prepare({ seq: 40, entries: [entry(39), entry(40)] }, 'import');
    expect(state.journal.lastId).toBe(2);
    install();
    expect(state.journal.list().map((e) => e.id)).toEqual([39, 40]);
    const { id: _id, ...rest } = entry(0);
    expect(state.journal.record(rest).id).toBe(41);
  });
});
