// Run before Stryker (`npm run test:mutation`): a surviving or timed-out mutant of the committed report is re-tested
// only when a test that is new or changed since that report reaches it, not when an unchanged test merely reached it
// this time and not last time.
//
// Why: Stryker re-tests an undetected mutant whenever its covering tests include one it did not record last time
// (incremental-differ.js, "A non-killed mutant got a new test"). Our API, control and store tests reach some code only
// on some runs (a group commit that a timer or a second request flushes, a render slot freed before or after a poll),
// so every run found 11 to 15 such mutants, each re-run with the ~300 tests that cover it: past CI's 10 minutes with
// nothing changed. Recording every test of the report as covering each undetected mutant keeps Stryker's own rule for
// what matters (a test added, or one whose code changed, still re-tests it) and drops the noise. The direction is
// safe: a mutant this skips stays undetected, so the score can only be understated, never overstated. A killed
// mutant is untouched (it is reused while the test that killed it is unchanged). Stryker rewrites the file with what
// it measured at the end of the run, so what is committed is always its own output.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const UNDETECTED = new Set(['Survived', 'Timeout']);

/** The report with every undetected mutant covered by every test the report knows; how many it widened. */
export function steadySurvivors(report) {
  const everyTest = Object.values(report.testFiles ?? {}).flatMap((file) => file.tests.map((test) => test.id));
  let widened = 0;
  for (const file of Object.values(report.files))
    for (const mutant of file.mutants)
      if (UNDETECTED.has(mutant.status)) {
        mutant.coveredBy = everyTest;
        widened += 1;
      }
  return { report, widened };
}

// Usage: node test/mutation/steady-survivors.mjs [report], by default the committed one beside this file.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const path = process.argv[2] ?? fileURLToPath(new URL('stryker-incremental.json', import.meta.url));
  const { report, widened } = steadySurvivors(JSON.parse(readFileSync(path, 'utf8')));
  writeFileSync(path, JSON.stringify(report));
  process.stdout.write(`steady-survivors: ${widened} undetected mutants re-run only for a new or changed test\n`);
}
