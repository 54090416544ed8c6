// zod -> JSON Schema 2020-12 (the OpenAPI 3.1 dialect): named schemas become components that refer to each other.
import * as z from 'zod';

export type JsonSchema = Record<string, unknown>;

export const componentRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

type Io = 'input' | 'output';

interface ZodInternals {
  _zod: { def: { type: string; in?: z.ZodType; out?: z.ZodType; element?: z.ZodType } };
}

/**
 * Request schemas validate lax input through transforms and pipes; their input side is what a client sends.
 * A list is checked as `unknown[]` first (size before items, as Pydantic does), so its item type lives on the
 * pipe's output side: copy it back, or the document would say "array of anything". A query number read as either
 * `"5"` or `5` and then bounded (1-100) has its bounds on the output side, which is what a client means.
 */
function override(io: Io) {
  return (ctx: { zodSchema: unknown; jsonSchema: JsonSchema }) => {
    const def = (ctx.zodSchema as ZodInternals)._zod.def;
    if (io !== 'input' || def.type !== 'pipe' || !def.out) return;
    const out = (def.out as unknown as ZodInternals)._zod.def;
    if (out.type === 'array' && out.element && ctx.jsonSchema.type === 'array')
      ctx.jsonSchema.items = single(out.element, io);
    if (out.type === 'number' && ctx.jsonSchema.anyOf) {
      for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
      Object.assign(ctx.jsonSchema, single(def.out, io));
    }
  };
}

/**
 * z.int() bounds every integer by the safe range. A request says so (an amount over 2^53 is refused, and a client or a
 * fuzzer should know); an answer never comes near it, and saying so on every answer's integer only makes noise.
 */
const SAFE_BOUNDS = new Map([
  ['maximum', Number.MAX_SAFE_INTEGER],
  ['minimum', Number.MIN_SAFE_INTEGER],
]);

/** zod names some string checks as formats (`starts_with`); the pattern it emits beside them already says it. */
const ZOD_ONLY_FORMATS = new Set(['starts_with', 'ends_with', 'includes', 'lowercase', 'uppercase']);

/**
 * JSON round trip: drops the `undefined` hints zod copies from `.meta()`, zod-only formats and an answer's safe bounds.
 * A tuple's `items: false` becomes the same rule as a schema (`{ not: {} }`), which OpenAPI linters expect there.
 */
const plain = <T>(value: T, io: Io): T =>
  JSON.parse(JSON.stringify(value), (key, v: unknown) => {
    if ((io === 'output' && SAFE_BOUNDS.get(key) === v) || (key === 'format' && ZOD_ONLY_FORMATS.has(v as string)))
      return undefined;
    return key === 'items' && v === false ? { not: {} } : v;
  }) as T;

export function single(schema: z.ZodType, io: Io): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: override(io),
  }) as JsonSchema;
  delete json.$schema;
  return plain(json, io);
}

/** Converts named schemas together, so a named schema nested in another becomes a `$ref` to its component. */
export function components(named: Record<string, z.ZodType>, io: Io): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: override(io),
  }) as { schemas: Record<string, JsonSchema> };
  if (schemas.__shared) throw new Error('a schema is shared without a name; give it one in the named map');
  for (const json of Object.values(schemas)) {
    delete json.$schema;
    delete json.$id;
  }
  return plain(schemas, io);
}

/** The properties of an object schema, each with whether it is required: query, header and form parameters. */
export function objectMembers(schema: z.ZodType, io: Io): { name: string; schema: JsonSchema; required: boolean }[] {
  const json = single(schema, io);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, member]) => ({ name, schema: member, required: required.has(name) }));
}

/** A schema that names itself (`.meta({ id })`), and the side it is documented on unless its own `io` says otherwise. */
export interface NamedUse {
  schema: z.ZodType;
  io: Io;
}

/**
 * Components from schemas that name themselves: each used schema with every named schema it holds, each a `$ref` by
 * its `id`. A body is documented on its input side and an answer on its output side; a schema whose meta gives `io`
 * (an answer that repeats a rule as it was sent, a body that takes back an export) on that one. A name given to two
 * different schemas is a mistake in the declarations, refused here.
 */
export function namedComponents(uses: NamedUse[]): Record<string, JsonSchema> {
  const found: Record<string, JsonSchema> = {};
  for (const { schema, io: used } of uses) {
    const meta = z.globalRegistry.get(schema);
    if (!meta?.id) throw new Error('A documented body or answer has no name: give it one with .meta({ id })');
    const io = (meta.io as Io | undefined) ?? used;
    const json = JSON.stringify(single(schema, io)).replaceAll('"#/$defs/', '"#/components/schemas/');
    const { $defs } = JSON.parse(json) as { $defs: Record<string, JsonSchema> };
    for (const [name, component] of Object.entries($defs)) {
      delete component.io;
      const text = JSON.stringify(component);
      if (name in found && JSON.stringify(found[name]) !== text)
        throw new Error(`Two different schemas are named ${name} (or one is documented on both sides): name each once`);
      found[name] = component;
    }
  }
  return found;
}
