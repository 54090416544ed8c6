// The calibration file's schema: what `verify --write-calibration` observed, in the form the emulator loads.
import * as z from 'zod';
import { MEDIA_KINDS } from '../domain/catalogue-schema.js';

export const SHAPE_NAMES = ['list', 'usage', 'upload'] as const;
export type ShapeName = (typeof SHAPE_NAMES)[number];

const observedError = z
  .object({
    status: z.int().min(400).max(599),
    /** The real service's `error.code`, when it differs from the emulator's own; absent when its body has none. */
    code: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,120}$/, 'must be a short code such as insufficient_credits')
      .optional(),
  })
  .strict();

const pricedSet = z
  .object({
    params: z.record(z.string(), z.string()),
    credits: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .strict();

export const calibrationFileSchema = z
  .object({
    $schema: z.string().optional(),
    version: z.literal(1),
    /** When the service was probed, ISO 8601. */
    observed_at: z.iso.datetime({ offset: true }),
    /** The probed base URL, without credentials or query. */
    service: z.string().max(2000).optional(),
    /** Keyed by the emulator's error code: the status (and code) the service answered for that failure class. */
    errors: z
      .record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be an emulator error code'), observedError)
      .default({}),
    /** `GET /models` as answered, verbatim: without a filter and for each kind. */
    catalogue: z
      .object({ all: z.unknown(), by_kind: z.partialRecord(z.enum(MEDIA_KINDS), z.unknown()) })
      .strict()
      .optional(),
    /** Observed prices by model slug, each a full or partial option set (absent groups at their default). */
    prices: z.record(z.string(), z.array(pricedSet)).default({}),
    /** Type skeletons of answers whose shape differs from the emulator's, for review. */
    shapes: z.partialRecord(z.enum(SHAPE_NAMES), z.unknown()).default({}),
  })
  .strict();

export type CalibrationFile = z.input<typeof calibrationFileSchema>;
export type Calibration = z.output<typeof calibrationFileSchema>;
