// A state file an older emulator wrote starts under today's stricter creation rules: only an import is held to them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlConnection } from '../../src/infra/sqlite-driver.js';
import { startEmulator } from '../../src/index.js';

const folder = mkdtempSync(join(tmpdir(), 'older-rules-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The control section as the emulator before 2026-11 wrote it: a rule id of dots and a scenario making `__proto__`. */
const olderControl = {
  faults: [
    {
      id: '..',
      source: 'api',
      createdAt: Date.UTC(2026, 10, 1),
      definition: { match: { route: '/zz' }, action: { type: 'status', status: 500 } },
      enabled: true,
      matched: 2,
      fired: 1,
    },
  ],
  scenario: {
    definition: { name: 'old', steps: [{ op: 'create_account', id: '__proto__' }], faults: [] },
    loadedAt: Date.UTC(2026, 10, 1),
    ruleIds: [],
    stepsRun: 1,
  },
};

describe('a state file written under older creation rules', () => {
  it('starts, shows what it holds, and lets it be removed; an import of the same is refused', async () => {
    const file = join(folder, 'state.db');
    await (await startEmulator({ stateFile: file, ffmpegPath: false, timing: 'manual' })).close();
    const db = openSqlConnection(file);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'control'").run(JSON.stringify(olderControl));
    db.close();

    const emulator = await startEmulator({ stateFile: file, ffmpegPath: false, timing: 'manual' });
    try {
      const rules = (await (await fetch(`${emulator.url}/_emulator/faults`)).json()) as { faults: { id: string }[] };
      expect(rules.faults.map((r) => r.id)).toEqual(['..']);
      const active = await (await fetch(`${emulator.url}/_emulator/scenarios/active`)).json();
      expect(active).toMatchObject({ active: { name: 'old', steps: { total: 1, run: 1 } } });
      const exported = await (await fetch(`${emulator.url}/_emulator/state`)).json();
      const reimport = await fetch(`${emulator.url}/_emulator/state`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(exported),
      });
      expect(reimport.status).toBe(422);
      expect((await (await fetch(`${emulator.url}/_emulator/faults`, { method: 'DELETE' })).status) < 300).toBe(true);
      expect(
        (await (await fetch(`${emulator.url}/_emulator/scenarios/active`, { method: 'DELETE' })).status) < 300,
      ).toBe(true);
    } finally {
      await emulator.close();
    }
  });
});
