// A world's parts as the store of record takes them, for the store's unit tests: a live emulator's runtime (its own
// store is not the one under test), its upload bytes, no kept sections.
import type { Emulator } from '../../src/index.js';
import { createMemoryUploadBlobs } from '../../src/infra/upload-blobs.js';
import type { DocumentDeps } from '../../src/store/state-document.js';
import { createEmulatorWith, runtimeOf } from '../../src/testing.js';

/** The emulator is pushed onto `emulators`, which the caller closes after each test. */
export function worldDeps(emulators: Emulator[]): DocumentDeps {
  const emulator = createEmulatorWith({ seed: 1, timing: 'manual', ffmpegPath: false });
  emulators.push(emulator);
  return {
    runtime: runtimeOf(emulator),
    uploadBlobs: createMemoryUploadBlobs({ maxBytes: 1_000_000 }),
    kept: { sections: [] },
  };
}
