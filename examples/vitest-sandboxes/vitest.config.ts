// The vitest recipe: one emulator for the whole run (global-setup.ts), a sandbox for each test file (sandbox.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    // Files run in parallel against the one emulator: each has its own sandbox, so none sees another's state.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 60_000,
  },
});
