// The one mapping layer from zod issues to FastAPI/Pydantic 422 `detail` items.
import type { z } from 'zod';
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

function valueAt(root: unknown, path: PropertyKey[]): { found: boolean; value: unknown; parent: unknown } {
  let parent: unknown;
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return { found: false, value: undefined, parent };
    parent = current;
    const record = current as Record<PropertyKey, unknown>;
    // An own member holding `undefined` is an absent header or query value (JSON never holds undefined).
    if (!Object.hasOwn(record, key) || record[key] === undefined) return { found: false, value: undefined, parent };
    current = record[key];
  }
  return { found: true, value: current, parent };
}

/**
 * Converts the issues of one parse of `root` into detail items with `loc` prefixed by `prefix`
 * (["body"], ["query"] or ["header"]). Extra members come after the field errors, in JSON key order.
 */
export function toPydanticItems(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  prefix: Loc,
  keyOrder?: string[],
): ValidationItem[] {
  const items: ValidationItem[] = [];
  const extras: ValidationItem[] = [];
  for (const issue of issues) {
    const path = issue.path as PropertyKey[];
    const loc: Loc = [...prefix, ...path.map((p) => (typeof p === 'number' ? p : String(p)))];
    const at = valueAt(root, path);
    if (issue.code === 'custom' && (issue.params as PydanticIssueParams | undefined)?.pydantic) {
      const { type, msg, ctx, input } = (issue.params as PydanticIssueParams).pydantic;
      items.push(
        type === 'missing'
          ? validationItem('missing', loc, msg, at.parent ?? null)
          : validationItem(type, loc, msg, input, ctx),
      );
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      const keys =
        path.length === 0 && keyOrder
          ? [...issue.keys].sort((a, b) => keyOrder.indexOf(a) - keyOrder.indexOf(b))
          : issue.keys;
      for (const key of keys) {
        extras.push(
          validationItem(
            'extra_forbidden',
            [...loc, key],
            'Extra inputs are not permitted',
            valueAt(root, [...path, key]).value,
          ),
        );
      }
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
  return [...items, ...extras];
}
