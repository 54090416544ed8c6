// What a fault rule matches with: prompt and key patterns and routes, compiled by RE2 (re2js) under a cost bound.
import type { RE2JS } from 're2js';
import * as z from 'zod';

/**
 * re2js (45 KB min+gzip in a page, most of it Unicode tables), given by the host: Node's composition imports it
 * statically (pattern-engine-node.ts); a page fetches it as a chunk of its own (loadPatternEngine) before the plane's
 * first change, or at start for a scenario or kept state, so the pack's import does not carry it (docs/msw.md).
 * Patterns compile synchronously (zod refinements, a rule installed), hence the slot. It is set once per process to
 * the library's own module, which holds no emulator's data and is the same for every emulator: emulators share
 * nothing through it, as they would share nothing through a static import of the same module.
 */
const engine: { re2?: typeof RE2JS } = {};

/** Makes `re2` the engine every pattern compiles with (the same module again changes nothing). */
export function usePatternEngine(re2: typeof RE2JS): void {
  engine.re2 ??= re2;
}

/** Fetches re2js where the host has not imported it (a page), and makes it the engine; resolves once it is. */
export const loadPatternEngine = (): Promise<void> =>
  engine.re2 ? Promise.resolve() : import('re2js').then((module) => usePatternEngine(module.RE2JS));

function re2(): typeof RE2JS {
  if (!engine.re2)
    throw new Error(
      'No pattern engine: loadPatternEngine() must settle before a pattern compiles (fault-patterns.ts).',
    );
  return engine.re2;
}

/** Rules name prompts, keys and paths, not documents: what a pattern or route may be, checked before it is compiled. */
const MAX_PATTERN_LENGTH = 500;
const MAX_ROUTE_LENGTH = 200;
/**
 * RE2 compiles a counted repetition into one copy per count, so `(.{1000}){1000}` is a million instructions (seconds
 * of compiling, tens of MB per rule). A pattern's length times the product of its counts stays under this.
 */
const MAX_PATTERN_COST = 50_000;

/** An upper bound on the size of the compiled program, read from the source text alone (an escaped `\{2}` counts too). */
function patternCost(source: string): number {
  let product = 1;
  for (const count of source.matchAll(/\{(\d+)(?:,(\d*))?\}/g))
    product = Math.min(product * Math.max(1, Number(count[1]), Number(count[2] || 0)), Number.MAX_SAFE_INTEGER);
  return source.length * product;
}

/** At most MAX_PATTERN_LENGTH characters; `abort` keeps a longer one from reaching the compiling checks after it. */
export const boundedPattern = () => z.string().min(1).max(MAX_PATTERN_LENGTH, { abort: true });

/** A regular expression source, or a /literal/flags form; checked by compiling it. */
export const regexSchema = boundedPattern().superRefine(refineRegex);

/** Compiles the pattern in RE2 (linear time), so a rule that cannot compile is refused with the field named. */
export function refineRegex(value: string, ctx: z.RefinementCtx): void {
  if (patternCost(value) > MAX_PATTERN_COST) {
    ctx.addIssue({
      code: 'custom',
      message: `repeats too much to compile cheaply: its counted repetitions ({n}) multiply past ${MAX_PATTERN_COST} with its length; use * or + or smaller counts`,
    });
    return;
  }
  re2(); // A missing engine is the host's fault, not the rule's: it must not become a 422 below.
  try {
    compileRegex(value);
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: `is not a valid regular expression in RE2 syntax (no backreferences or lookaround): ${(error as Error).message}`,
    });
  }
}

/** What a rule needs of a pattern: a yes/no answer in time linear in the input. */
export interface Pattern {
  test(input: string): boolean;
}

/**
 * RE2 semantics (re2js): no backreferences or lookaround, and matching time linear in the input, so a rule such as
 * /^(a+)+$/ cannot stall the server. `i`, `m` and `s` map to RE2 flags; `d`, `g`, `u` and `y` change nothing for a test.
 */
export function compileRegex(value: string): Pattern {
  const literal = /^\/(.*)\/([dgimsuy]*)$/s.exec(value);
  const source = literal ? literal[1] : value;
  const flags = literal ? literal[2] : '';
  const RE2 = re2();
  const re = RE2.compile(
    source,
    (flags.includes('i') ? RE2.CASE_INSENSITIVE : 0) |
      (flags.includes('m') ? RE2.MULTILINE : 0) |
      (flags.includes('s') ? RE2.DOTALL : 0),
  );
  return { test: (input) => re.test(input) };
}

/**
 * `/v1/media/*` or `/v1/media/generations/:id` as a pattern. Compiled by RE2 (re2js) like the other matchers: with a
 * backtracking engine a route of a few dozen `*` takes exponential time against a path that does not match.
 */
export function compileRoute(route: string): Pattern {
  const pattern = route
    .split(/(:[A-Za-z_]\w*|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const re = re2().compile(`^${pattern.replace(/\/$/, '')}/?$`);
  return { test: (path) => re.test(path) };
}

/**
 * A route as a rule names it. Only its length needs checking: compileRoute escapes every other character, so within
 * MAX_ROUTE_LENGTH what it builds always compiles (a 900,000-character route used to fail there, as a 500).
 */
export const routeSchema = z
  .string()
  .startsWith('/', 'must start with "/", e.g. "/v1/media/generations" or "/v1/media/*"')
  .max(MAX_ROUTE_LENGTH);
