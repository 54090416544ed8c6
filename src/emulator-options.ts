// The public options type: the core's options plus what the emulation plane (its options, a scenario) and verify (a calibration) read.
import type { CoreOptions } from './config.js';
import type { PlaneOptions } from './emulation/plane-options.js';
import type { ScenarioInput } from './emulation/scenarios/scenario-schema.js';
import type { CalibrationFile } from './verify/calibration-schema.js';

export interface EmulatorOptions extends CoreOptions, PlaneOptions {
  /** What `verify --write-calibration` observed on the real service (a file path or its data): statuses, codes, catalogue, prices. */
  calibration?: string | CalibrationFile;
  /** A scenario applied at start and again after every reset: a name in fixtures/scenarios/, a file path, or the scenario itself. */
  scenario?: string | ScenarioInput;
}
