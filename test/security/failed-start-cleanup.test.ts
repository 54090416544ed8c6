// A start that fails (bad scenario or state file) says why in one line, exits 2 and leaves nothing under TMPDIR.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshTmp, leftUnder, startCli } from '../helpers/cli-process.js';

describe('failed starts', () => {
  it.each([
    ['an unknown scenario', ['--scenario', 'no-such-scenario'], /No scenario named 'no-such-scenario'/],
    ['a state file that is not JSON', ['--state-file', 'BAD_STATE'], /is not valid JSON/],
    [
      'a state file in a folder that does not exist',
      ['--state-file', 'MISSING_FOLDER'],
      /cannot be written \(ENOENT\): its folder must exist/,
    ],
  ])(
    'say why in one line, exit 2 and leave nothing under TMPDIR after %s',
    { timeout: 60_000 },
    async (_what, args, why) => {
      const tmp = freshTmp();
      const folder = mkdtempSync(join(tmpdir(), 'sec-bad-'));
      const bad = join(folder, 'state.json');
      writeFileSync(bad, '{ not json');
      const paths: Record<string, string> = {
        BAD_STATE: bad,
        MISSING_FOLDER: join(folder, 'no-such-folder', 'state.json'),
      };
      const failure = await startCli(
        args.map((a) => paths[a] ?? a),
        { tmp },
      ).then(
        () => new Error('the CLI started'),
        (error: Error) => error,
      );
      expect(failure.message).toMatch(/exited with 2/);
      expect(failure.message).toMatch(why);
      // One line from the CLI, no stack trace.
      expect(failure.message).not.toMatch(/\n\s+at /);
      expect(leftUnder(tmp)).toEqual([]);
    },
  );
});
