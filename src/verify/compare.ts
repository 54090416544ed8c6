// How two answers to one request are compared: by error class, by price, by exact body or by shape (type skeleton).
import { isDeepStrictEqual } from 'node:util';
import type { ProbeAnswer } from './http-probe.js';

export type Comparison = 'error' | 'price' | 'body' | 'shape';

/** A type skeleton: `"string"`, `"number"`, ..., `{ member: skeleton }`, `[skeleton]` (empty `[]` when no items seen). */
export type Skeleton = string | Skeleton[] | { [member: string]: Skeleton };

export function skeleton(value: unknown): Skeleton {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const items = value.map(skeleton);
    return items.length === 0 ? [] : [items.reduce(mergeSkeletons)];
  }
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, skeleton(v)]),
    );
  return typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
}

function mergeSkeletons(a: Skeleton, b: Skeleton): Skeleton {
  if (a === 'null') return b;
  if (b === 'null' || isDeepStrictEqual(a, b)) return a;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === 0 ? b : b.length === 0 ? a : [mergeSkeletons(a[0], b[0])];
  if (typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const merged: Record<string, Skeleton> = { ...a };
    for (const [k, v] of Object.entries(b)) merged[k] = k in merged ? mergeSkeletons(merged[k], v) : v;
    return merged;
  }
  return `${a}|${b}`;
}

/** Null fits any type (a member that is null today may be set tomorrow) and an empty array fits any array. */
export function sameShape(a: Skeleton, b: Skeleton): boolean {
  if (a === 'null' || b === 'null') return true;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return false;
    return a.length === 0 || b.length === 0 || sameShape(a[0], b[0]);
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (!(k in a) || !(k in b) || !sameShape(a[k], b[k])) return false;
  return true;
}

export function errorCode(answer: ProbeAnswer): string | undefined {
  const error = (answer.body as { error?: { code?: unknown } } | null)?.error;
  return typeof error?.code === 'string' ? error.code : undefined;
}

/** What is shown and compared for an answer: never the whole body unless the comparison is exact. */
export function summarise(answer: ProbeAnswer, how: Comparison): unknown {
  if (answer.failure !== undefined) return { failure: answer.failure };
  const body = answer.body as Record<string, unknown> | null;
  if (answer.status === 422 && Array.isArray(body?.detail))
    return {
      status: 422,
      detail: (body.detail as Array<Record<string, unknown>>).map((d) => ({ loc: d.loc, type: d.type })),
    };
  if (answer.status >= 400) {
    const code = errorCode(answer);
    return code === undefined ? { status: answer.status, body: answer.body } : { status: answer.status, code };
  }
  if (how === 'price') return { status: answer.status, credits: body?.credits };
  if (how === 'shape') return { status: answer.status, shape: skeleton(answer.body) };
  if (how === 'body') return { status: answer.status, body: answer.body };
  return { status: answer.status };
}

export function same(live: ProbeAnswer, emulator: ProbeAnswer, how: Comparison): boolean {
  const a = summarise(live, how) as { shape?: Skeleton };
  const b = summarise(emulator, how) as { shape?: Skeleton };
  if (how === 'shape' && a.shape !== undefined && b.shape !== undefined)
    return live.status === emulator.status && sameShape(a.shape, b.shape);
  return isDeepStrictEqual(a, b);
}
