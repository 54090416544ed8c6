// A sandbox for the test file that calls it, deleted after the file: its own wallet, keys, fault rules, journal, clock.
import { afterAll, inject } from 'vitest';
import { connectEmulator } from 'media-gen-emulator';

export async function fileSandbox(label: string) {
  const emulator = connectEmulator(inject('emulatorUrl'));
  // Manual timing: generations move only when the test moves this sandbox's clock.
  const sandbox = await emulator.createSandbox({ label, balance: 10_000, timing: { profile: 'manual' } });
  await sandbox.control.freeze();
  afterAll(() => sandbox.close());
  return sandbox;
}
