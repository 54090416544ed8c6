// Setup file of the mutation selection (vitest.mutation.config.ts): each test file gets fresh instances of our own
// modules, as with vitest's isolation, while the packages under node_modules stay loaded from the files before.
import { vi } from 'vitest';

vi.resetModules();
