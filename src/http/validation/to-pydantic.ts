// The one mapping layer from zod issues to FastAPI/Pydantic 422 `detail` items.
import type * as z from 'zod';
import { validationItem, type Loc, type ValidationItem } from '../../domain/validation-item.js';
import type { PydanticIssueParams } from './pydantic-types.js';

const TYPE_BY_EXPECTED: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  object: ['dict_type', 'Input should be a valid dictionary'],
  array: ['list_type', 'Input should be a valid list'],
  int: ['int_type', 'Input should be a valid integer'],
  number: ['int_type', 'Input should be a valid integer'],
};

const LONE = /\p{Surrogate}/gu;

/** pydantic-core reads dict keys lossily: a lone surrogate's three UTF-8 bytes become three U+FFFD in `loc`. */
function lossyLoc(item: ValidationItem): ValidationItem {
  if (!item.loc.some((p) => typeof p === 'string' && LONE.test(p))) return item;
  LONE.lastIndex = 0;
  return { ...item, loc: item.loc.map((p) => (typeof p === 'string' ? p.replace(LONE, '\ufffd\ufffd\ufffd') : p)) };
}

/** One step into a plain object, an array or a Map (Python's ordered dict from the echo tree). */
function child(current: unknown, key: PropertyKey): { found: boolean; value: unknown } {
  if (current instanceof Map) return { found: current.has(String(key)), value: current.get(String(key)) };
  if (current === null || typeof current !== 'object') return { found: false, value: undefined };
  const record = current as Record<PropertyKey, unknown>;
  // An own member holding `undefined` is an absent header or query value (JSON never holds undefined).
  const found = Object.hasOwn(record, key) && record[key] !== undefined;
  return { found, value: found ? record[key] : undefined };
}

function valueAt(root: unknown, path: PropertyKey[]): { found: boolean; value: unknown; parent: unknown } {
  let parent: unknown;
  let current: unknown = root;
  for (const key of path) {
    parent = current;
    const next = child(current, key);
    if (!next.found) return { found: false, value: undefined, parent };
    current = next.value;
  }
  return { found: true, value: current, parent };
}

type Position = (container: unknown, key: string | number) => number;

/**
 * Where a key sits in its dict as written (Python order), or an index in a list; unknown keys sort last. Each dict's
 * key order is indexed once per call site: sorting asks for every key, and 200,000 members must not cost n² steps.
 */
function positionFinder(): Position {
  const indexes = new Map<unknown, Map<string, number>>();
  return (container, key) => {
    if (typeof key === 'number') return key;
    let index = indexes.get(container);
    if (!index) {
      const keys = container instanceof Map ? [...container.keys()] : Object.keys(container ?? {});
      index = new Map(keys.map((k, i) => [String(k), i]));
      indexes.set(container, index);
    }
    return index.get(key) ?? Number.MAX_SAFE_INTEGER;
  };
}

/**
 * Pydantic reports model fields in declaration order (zod's order), and inside a dict or list in input order.
 * JavaScript objects list integer-like keys first, so items under one field are re-sorted by the written order.
 */
function inWrittenOrder(items: ValidationItem[], echo: unknown, depth: number): ValidationItem[] {
  const position = positionFinder();
  const fieldRank = new Map<unknown, number>();
  for (const item of items) if (!fieldRank.has(item.loc[depth])) fieldRank.set(item.loc[depth], fieldRank.size);
  const key = (item: ValidationItem) => {
    const ranks: number[] = [fieldRank.get(item.loc[depth]) ?? 0];
    let container = child(echo, item.loc[depth] as PropertyKey).value;
    for (const part of item.loc.slice(depth + 1)) {
      ranks.push(position(container, part));
      container = child(container, part).value;
    }
    return ranks;
  };
  const keyed = items.map((item, index) => ({ item, index, ranks: key(item) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < Math.min(a.ranks.length, b.ranks.length); i++)
      if (a.ranks[i] !== b.ranks[i]) return a.ranks[i] - b.ranks[i];
    return a.index - b.index;
  });
  return keyed.map((k) => k.item);
}

/**
 * Converts the issues of one parse of `root` into detail items with `loc` prefixed by `prefix`
 * (["body"], ["query"] or ["header"]). `echo` is the input as Python holds it (defaults to `root`): every `input`
 * member is read from it. Extra members come after the field errors, in written order.
 */
export function toPydanticItems(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  prefix: Loc,
  echo: unknown = root,
): ValidationItem[] {
  const items: ValidationItem[] = [];
  const extras: ValidationItem[] = [];
  for (const issue of issues) {
    const path = issue.path as PropertyKey[];
    // pydantic-core turns dict keys into Rust strings lossily: a lone surrogate in a loc becomes U+FFFD.
    const loc: Loc = [...prefix, ...path.map((p) => (typeof p === 'number' ? p : String(p)))];
    const at = valueAt(echo, path);
    if (issue.code === 'custom' && (issue.params as PydanticIssueParams | undefined)?.pydantic) {
      const { type, msg, ctx, input } = (issue.params as PydanticIssueParams).pydantic;
      items.push(
        type === 'missing'
          ? validationItem('missing', loc, msg, at.parent ?? null)
          : validationItem(type, loc, msg, at.found ? at.value : input, ctx),
      );
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      const position = positionFinder();
      const keys = [...issue.keys].sort((a, b) => position(at.value, a) - position(at.value, b));
      for (const key of keys)
        extras.push(
          validationItem(
            'extra_forbidden',
            [...loc, key],
            'Extra inputs are not permitted',
            child(at.value, key).value,
          ),
        );
      continue;
    }
    if (issue.code === 'invalid_type') {
      if (!at.found) {
        // FastAPI reports a missing body member with the whole body as input, a missing header or query value with null.
        items.push(validationItem('missing', loc, 'Field required', prefix[0] === 'body' ? (at.parent ?? null) : null));
        continue;
      }
      if (path.length === 0 && issue.expected === 'object') {
        items.push(
          validationItem(
            'model_attributes_type',
            loc,
            'Input should be a valid dictionary or object to extract fields from',
            at.value,
          ),
        );
        continue;
      }
      const [type, msg] = TYPE_BY_EXPECTED[issue.expected] ?? ['value_error', issue.message];
      items.push(validationItem(type, loc, msg, at.value));
      continue;
    }
    items.push(validationItem('value_error', loc, `Value error, ${issue.message}`, at.value, { error: issue.message }));
  }
  // An extra member's name stays a Python str in its loc, so a lone surrogate there is unrenderable (a 500) instead.
  return [...inWrittenOrder(items, echo, prefix.length).map(lossyLoc), ...extras];
}
