// fast-check arbitraries for values that conform to a JSON Schema of the OpenAPI document (the subset zod emits).
import fc from 'fast-check';

type Schema = Record<string, any>;

export interface SchemaArbitraryOptions {
  /** Caps sizes so generated requests stay small; bounds at the limits are tested by the mutations instead. */
  maxStringLength?: number;
  maxCollection?: number;
}

/** Strings counted in code points, as the emulator counts them; any Unicode scalar value. */
const text = (min: number, max: number) => fc.string({ unit: 'binary', minLength: min, maxLength: max });

export function schemaArbitrary(
  document: Schema,
  schema: Schema,
  options: SchemaArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  const maxString = options.maxStringLength ?? 24;
  const maxCollection = options.maxCollection ?? 4;

  const resolve = (s: Schema): Schema => {
    if (!s.$ref) return s;
    const path = String(s.$ref)
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    return resolve(path.reduce((node: any, key) => node[key], document));
  };

  const build = (raw: Schema): fc.Arbitrary<unknown> => {
    const s = resolve(raw);
    if (s.const !== undefined) return fc.constant(s.const);
    if (s.enum) return fc.constantFrom(...s.enum);
    if (s.anyOf || s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf).map(build));
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      // Unbounded numbers reach the extremes too: a huge but valid number is where arithmetic on dates and money breaks.
      case 'integer':
        if (s.minimum !== undefined && s.maximum !== undefined) return fc.integer({ min: s.minimum, max: s.maximum });
        return fc.oneof(
          {
            arbitrary: fc.integer({
              min: Math.max(s.minimum ?? -1_000_000, -1_000_000),
              max: Math.min(s.maximum ?? 1_000_000, 1_000_000),
            }),
            weight: 4,
          },
          {
            arbitrary: fc.integer({
              min: s.minimum ?? Number.MIN_SAFE_INTEGER,
              max: s.maximum ?? Number.MAX_SAFE_INTEGER,
            }),
            weight: 1,
          },
        );
      case 'number':
        return fc.oneof(
          {
            arbitrary: fc.integer({ min: Math.max(s.minimum ?? -1e6, -1e6), max: Math.min(s.maximum ?? 1e6, 1e6) }),
            weight: 4,
          },
          {
            arbitrary: fc.double({
              min: s.minimum ?? -Number.MAX_VALUE,
              max: s.maximum ?? Number.MAX_VALUE,
              noNaN: true,
              noDefaultInfinity: true,
            }),
            weight: 1,
          },
        );
      case 'string': {
        const min = s.minLength ?? 0;
        const max = Math.max(min, Math.min(s.maxLength ?? maxString, maxString));
        if (s.format === 'date-time')
          return fc
            .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
            .map((d) => d.toISOString());
        if (s.pattern)
          return fc.stringMatching(new RegExp(s.pattern)).filter((v) => [...v].length >= min && [...v].length <= max);
        return text(min, max);
      }
      case 'array': {
        const max = Math.min(s.maxItems ?? maxCollection, maxCollection);
        return fc.array(build(s.items ?? {}), { minLength: Math.min(s.minItems ?? 0, max), maxLength: max });
      }
      case 'object': {
        const properties = (s.properties ?? {}) as Record<string, Schema>;
        const required = new Set<string>(s.required ?? []);
        if (Object.keys(properties).length) {
          const record: Record<string, fc.Arbitrary<unknown>> = {};
          for (const [name, member] of Object.entries(properties)) record[name] = build(member);
          return fc.record(record, { requiredKeys: [...required].filter((k) => k in properties) });
        }
        if (s.additionalProperties && typeof s.additionalProperties === 'object') {
          const maxKeys = Math.min(s.maxProperties ?? maxCollection, maxCollection);
          return fc.dictionary(text(1, 12), build(s.additionalProperties), { maxKeys });
        }
        return fc.object({ maxDepth: 1, maxKeys: 3 });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  };

  return build(schema);
}
