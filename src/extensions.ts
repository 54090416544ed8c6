// The standard set of extensions every entry point gets: later layers (control plane, faults, CORS, console) register here.
import type { EmulatorExtensions } from './emulator.js';

export function standardExtensions(): EmulatorExtensions {
  return {};
}
