// Starts one emulator before the test files and gives them its URL (inject('emulatorUrl')); stops it after the last.
import { startEmulator } from 'media-gen-emulator';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    emulatorUrl: string;
  }
}

export default async function setup(project: TestProject) {
  // In this process, on a free loopback port. Against the CLI or Docker instead: provide that URL here.
  const emulator = await startEmulator({ seed: 1 });
  project.provide('emulatorUrl', emulator.url);
  return () => emulator.close();
}
