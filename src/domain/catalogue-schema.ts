// The catalogue file's schema: one definition gives the TypeScript types and the load-time validation.
import * as z from 'zod';

export const MEDIA_KINDS = ['image', 'video', 'music', '3d'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Exact prices as decimal ("21.8") or fraction ("763/3") strings, so no float ever touches a price. */
export const rationalString = z
  .string()
  .regex(/^\d+(\.\d+)?(\/\d+)?$/, 'must be a decimal like "21.8" or a fraction like "763/3"');

const optionGroup = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be lower_snake_case'),
    label: z.string().optional(),
    description: z.string().optional(),
    values: z.array(z.string().min(1)).min(1),
    default: z.string(),
  })
  .strict()
  .refine((g) => g.values.includes(g.default), { message: 'must be one of values', path: ['default'] });

const refSlot = z
  .object({
    name: z.string().min(1).max(80),
    role: z.enum(['first', 'last']),
    description: z.string().optional(),
  })
  .strict();

const referenceInputs = z
  .object({
    field: z.literal('refs'),
    max_files: z.int().min(0),
    /** What a ref item may be: upload identifiers only, for the two specified models. */
    accepts: z.array(z.enum(['upload_id', 'https_url', 'data_uri'])).min(1),
    formats: z.array(z.enum(['png', 'jpeg', 'webp'])).min(1),
    max_bytes: z.int().positive(),
    min_width: z.int().positive().optional(),
    min_height: z.int().positive().optional(),
    max_width: z.int().positive().optional(),
    max_height: z.int().positive().optional(),
    slots: z.array(refSlot),
  })
  .strict();

const priceRule = z
  .object({
    unit: z.enum(['second', 'output', 'image', 'track', 'asset']),
    credits_per_unit: rationalString,
    /** Option group whose value is the number of units (e.g. duration in seconds); absent means one unit. */
    units_from: z.string().optional(),
    /** Option group whose value multiplies the price (number of outputs). */
    count_from: z.string().optional(),
    /** Per-group, per-value factors, e.g. { quality: { "720p": "9/4" } }. */
    multipliers: z.record(z.string(), z.record(z.string(), rationalString)).default({}),
    rounding: z.literal('ceil'),
    /** Exact prices of whole option sets (e.g. observed on the real service), used in preference to the formula. */
    table: z
      .array(
        z
          .object({
            params: z.record(z.string(), z.string()),
            credits: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();

/** The media type a file of each output format is served with (GET /files); the OpenAPI document lists these. */
export const OUTPUT_MEDIA_TYPES = {
  mp4: 'video/mp4',
  png: 'image/png',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  glb: 'model/gltf-binary',
} as const;

type OutputFormat = keyof typeof OUTPUT_MEDIA_TYPES;

const output = z
  .object({
    format: z.enum(Object.keys(OUTPUT_MEDIA_TYPES) as [OutputFormat, ...OutputFormat[]]),
    mime_type: z.string().min(1),
    /** Resolution used when the model has no `quality` group. */
    default_quality: z.enum(['480p', '720p', '1080p']).optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    const type = OUTPUT_MEDIA_TYPES[value.format];
    if (value.mime_type !== type)
      ctx.addIssue({
        code: 'custom',
        path: ['mime_type'],
        message: `must be "${type}", the media type of ${value.format}`,
      });
  });

export const modelEntrySchema = z
  .object({
    slug: z
      .string()
      .regex(/^[a-zA-Z0-9][a-zA-Z0-9._-]*$/)
      .max(80),
    kind: z.enum(MEDIA_KINDS),
    name: z.string().min(1),
    description: z.string(),
    /** True for models the emulator adds as examples; false for the two models of the spec. */
    emulator_example: z.boolean(),
    capabilities: z.array(z.string()),
    prompt: z.object({ required: z.boolean(), max_length: z.int().positive() }).strict(),
    option_groups: z.array(optionGroup),
    reference_inputs: referenceInputs.nullable(),
    output,
    price: priceRule,
  })
  .strict();

export const catalogueFileSchema = z
  .object({
    $schema: z.string().optional(),
    version: z.literal(1),
    models: z.array(modelEntrySchema).min(1),
  })
  .strict();

export type OptionGroup = z.infer<typeof optionGroup>;
export type RefSlot = z.infer<typeof refSlot>;
export type ReferenceInputs = z.infer<typeof referenceInputs>;
export type PriceRule = z.infer<typeof priceRule>;
export type ModelEntry = z.infer<typeof modelEntrySchema>;
export type CatalogueFile = z.infer<typeof catalogueFileSchema>;
