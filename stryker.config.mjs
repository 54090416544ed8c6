// Mutation testing of the service core (`npm run test:mutation`, issue 39): Stryker mutates src/domain/ and src/store/
// and runs, for each mutant, the in-process tests that cover it (vitest.mutation.config.ts). docs/proof.md says how.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner', './test/mutation/directory-thresholds.mjs'],
  mutate: ['src/domain/**/*.ts', 'src/store/**/*.ts'],
  coverageAnalysis: 'perTest',
  // A mutant reached only while a module loads or a test file's hooks run (the fixture catalogue, an emulator built
  // in beforeAll) would need the whole selection for itself: it is left out of the score (Ignored) instead.
  ignoreStatic: true,
  // With `--incremental` (npm run test:mutation), only the mutants whose code or covering tests changed run again; the
  // file is committed so CI starts from it.
  incrementalFile: 'test/mutation/stryker-incremental.json',
  // Two cores: one test runner each. A loaded machine slows every test, so a mutant times out only well past its
  // tests' own time (3x, plus 60 s): at 2x plus 10 s, equivalent mutants (which run every test that reaches them) were
  // counted as detected by timing out at load 8. An infinite loop is caught sooner, by Stryker's hit counter.
  concurrency: 2,
  timeoutFactor: 3,
  timeoutMS: 60_000,
  dryRunTimeoutMinutes: 20,
  // Under test-output/ (ignored by git): express.static refuses a path with a dot-directory, such as .stryker-tmp.
  tempDirName: 'test-output/stryker-tmp',
  ignorePatterns: ['dist', 'test-output', 'bench/.tmp', '.venv-conformance', 'examples', 'test/browser', 'test/load'],
  reporters: ['clear-text', 'progress', 'html', 'json', 'directory-thresholds'],
  htmlReporter: { fileName: 'test-output/mutation/index.html' },
  jsonReporter: { fileName: 'test-output/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, reportMutants: false, reportTests: false, reportScoreTable: true },
  // The colours of the tables. The floors (src/domain/ 90, src/store/ 85, equivalent mutants left out) are checked by
  // the directory-thresholds reporter, which sets the exit code; Stryker's break would count equivalents as survivors.
  thresholds: { high: 90, low: 85, break: null },
};
