// The public options type: the core's options plus what the emulation plane and verify (a calibration) read.
import type { CoreOptions } from './config.js';
import type { PlaneOptions } from './emulation/plane-options.js';
import type { CalibrationFile } from './verify/calibration-schema.js';

export interface EmulatorOptions extends CoreOptions, PlaneOptions {
  /** What `verify --write-calibration` observed on the real service (a file path or its data): statuses, codes, catalogue, prices. */
  calibration?: string | CalibrationFile;
}
