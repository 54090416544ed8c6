// test/mutation/steady-survivors.mjs, run as `npm run test:mutation` runs it: every undetected mutant of a report is
// recorded as covered by every test the report knows; killed, uncovered and ignored mutants are left as they are.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '../../mutation/steady-survivors.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const mutant = (id: string, status: string, coveredBy?: string[]) => ({
  id,
  status,
  ...(coveredBy ? { coveredBy } : {}),
});

/** Runs the script on `report` written to a file; what it printed and the file it left. */
function widen(report: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'steady-survivors-'));
  dirs.push(dir);
  const path = join(dir, 'report.json');
  writeFileSync(path, JSON.stringify(report));
  const printed = execFileSync(process.execPath, [SCRIPT, path], { encoding: 'utf8' });
  return { printed, report: JSON.parse(readFileSync(path, 'utf8')) };
}

describe('steady-survivors', () => {
  it('covers each surviving and timed-out mutant with every test, and leaves the others alone', () => {
    const { printed, report } = widen({
      testFiles: {
        'test/a.test.ts': {
          tests: [
            { id: '0', name: 'a0' },
            { id: '1', name: 'a1' },
          ],
        },
        'test/b.test.ts': { tests: [{ id: '2', name: 'b2' }] },
      },
      files: {
        'src/domain/x.ts': {
          mutants: [
            mutant('m1', 'Survived', ['1']),
            mutant('m2', 'Killed', ['0', '2']),
            mutant('m3', 'Timeout', ['2']),
            mutant('m4', 'NoCoverage'),
          ],
        },
        'src/store/y.ts': { mutants: [mutant('m5', 'Ignored'), mutant('m6', 'Survived', ['0'])] },
      },
    });
    const coverage = Object.fromEntries(
      Object.values(report.files).flatMap((file) =>
        (file as { mutants: { id: string; coveredBy?: string[] }[] }).mutants.map((m) => [m.id, m.coveredBy]),
      ),
    );
    expect(coverage).toEqual({
      m1: ['0', '1', '2'],
      m2: ['0', '2'],
      m3: ['0', '1', '2'],
      m4: undefined,
      m5: undefined,
      m6: ['0', '1', '2'],
    });
    expect(printed).toBe('steady-survivors: 3 undetected mutants re-run only for a new or changed test\n');
  });

  it('leaves an undetected mutant of a report that knows no test covered by none, so any test re-tests it', () => {
    const { report } = widen({ files: { 'src/domain/x.ts': { mutants: [mutant('m1', 'Survived', ['9'])] } } });
    expect(report.files['src/domain/x.ts'].mutants[0].coveredBy).toEqual([]);
  });
});
