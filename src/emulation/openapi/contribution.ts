// The emulation plane's part of /openapi.json: health, console, the document itself and the control plane.
import {
  buildOpenApiDocument,
  type DocumentOptions,
  type OpenApiDocument,
  type PathContribution,
} from '../../openapi/document.js';
import { CONTROL_INPUT_SCHEMAS, CONTROL_SCHEMAS, controlOperations, FAULT_ANSWERS } from './control-paths.js';
import { emulatorOperations } from './emulator-paths.js';

export function emulationPaths(): PathContribution {
  return {
    operations: [...emulatorOperations(), ...controlOperations()],
    inputSchemas: CONTROL_INPUT_SCHEMAS,
    outputSchemas: CONTROL_SCHEMAS,
    jsonSchemas: FAULT_ANSWERS,
    tags: [
      { name: 'Emulator', description: 'Health, console and this document.' },
      {
        name: 'Control',
        description: 'The control plane: state, clock, faults and scenarios (docs/control-plane-contract.md).',
      },
    ],
  };
}

/** The document a full emulator serves: the public API plus the emulation plane (tests, scripts/write-openapi.ts). */
export function emulatorOpenApiDocument(options: Omit<DocumentOptions, 'contributions'> = {}): OpenApiDocument {
  return buildOpenApiDocument({ ...options, contributions: [emulationPaths()] });
}
