// The emulation plane's part of /openapi.json: health, console, the document itself and the control plane.
import {
  buildOpenApiDocument,
  type DocumentOptions,
  type OpenApiDocument,
  type PathContribution,
} from '../../openapi/document.js';
import { controlOperations, controlSchemas } from './control-op.js';
import { healthSchema } from './control-schemas.js';
import { emulatorOperations } from './emulator-paths.js';
import { PLANE_ERROR_STATUSES } from '../error-codes.js';
import { PLANE_ERROR_CODE_DOCS } from './error-codes.js';

interface PlaneShape {
  /** Off: only health and this document are served, so only they are documented. */
  controlPlane: boolean;
}

export function emulationPaths({ controlPlane }: PlaneShape): PathContribution {
  const always = emulatorOperations().filter((op) => controlPlane || !op.path.startsWith('/_emulator/console'));
  return {
    operations: controlPlane ? [...always, ...controlOperations()] : always,
    // Health is documented with the plane off too; the rest only when it is served.
    schemas: [{ schema: healthSchema, io: 'output' }, ...(controlPlane ? controlSchemas() : [])],
    errorCodes: { statuses: PLANE_ERROR_STATUSES, docs: PLANE_ERROR_CODE_DOCS },
    // The plane guard refuses, before any route, a path that names /_emulator and hides a separator or a dot segment:
    // a path parameter can hold one (`_emulator%2F..`), on the public API too.
    pathParameterErrors: ['path_not_canonical'],
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
export function emulatorOpenApiDocument(
  options: Omit<DocumentOptions, 'contributions'> & Partial<PlaneShape> = {},
): OpenApiDocument {
  const { controlPlane = true, ...rest } = options;
  return buildOpenApiDocument({ ...rest, contributions: [emulationPaths({ controlPlane })] });
}
