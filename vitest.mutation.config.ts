// Vitest settings for mutation testing (stryker.config.mjs, `npm run test:mutation`): the tests that exercise the
// service core in this process and start no browser, so Stryker can see which test covers which mutant.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/** Folders from the narrowest tests to the widest: a mutant is usually killed by a unit test, and Stryker stops at
 * the first failure, so the wide, slow files run only for the mutants nothing earlier noticed. */
const FOLDERS = ['unit', 'api', 'scenarios', 'control', 'sandboxes', 'property', 'security'];

class NarrowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => FOLDERS.findIndex((folder) => file.moduleId.includes(`/test/${folder}/`));
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: FOLDERS.map((folder) => `test/${folder}/**/*.test.ts`),
    exclude: [
      // A browser; the 40 s memory soak (npm run test:soak).
      'test/security/cross-site-browser.test.ts',
      'test/security/memory-under-load.test.ts',
      // Options parsing (src/config.ts, not mutated), and one test calls process.chdir(), which Stryker's worker
      // threads refuse.
      'test/api/start-options.test.ts',
      // The CLI in a child process, where no mutant is switched on: it can kill none.
      'test/sandboxes/sandbox-kill9.test.ts',
      // A unit test that builds a whole emulator (issue 39): a new test re-tests every listed-equivalent or surviving
      // mutant it reaches (nearly all) with the ~300 tests that cover each, hours for one test. It runs under npm test.
      'test/unit/domain/submission-plans.test.ts',
    ],
    sequence: { sequencer: NarrowestFirst },
    // Isolation would load express, zod and ajv again for every file of every mutant's run (about 1 s each, most of
    // a mutant's time); without it, the setup file still gives each file fresh instances of our own modules (and of
    // the test helpers' hooks), so a test sees what it sees under `npm test`.
    isolate: false,
    setupFiles: ['test/mutation/fresh-modules.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
