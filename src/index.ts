// Public entry points for tests and tools: createApp for supertest, startEmulator for a real socket.
export {
  createApp,
  createEmulatorApp,
  type RunningEmulator,
  type StartOptions,
  startEmulator,
} from './start-emulator.js';
export type { Emulator } from './emulator-types.js';
export type { Control, SandboxHandle } from './emulation/client.js';
export { connectEmulator, EmulatorControlError, type ConnectOptions } from './emulation/remote-client.js';
export type { EmulatorState } from './emulation/state/emulator-state.js';
export type { FaultRuleInput } from './emulation/faults/fault-schema.js';
export type { ScenarioInput } from './emulation/scenarios/scenario-schema.js';
export type { EmulatorOptions } from './emulator-options.js';
export { DEFAULT_API_KEY, DEFAULT_BALANCE, DEFAULT_PORT } from './config.js';
export type { TimingProfile } from './domain/timing.js';
export { verifyAgainst, VerifyError, type VerifyOptions } from './verify/verify.js';
export type { VerifyReport, ReportRow, PriceRow, CheckResult } from './verify/report-types.js';
export { toCalibration } from './verify/to-calibration.js';
export { toMarkdown } from './verify/markdown.js';
export { CalibrationError } from './verify/calibration.js';
export type { CalibrationFile } from './verify/calibration-schema.js';
