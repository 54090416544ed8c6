// One control operation as data: method, path, documented input and answer, and the handler both clients end up calling.
import type * as z from 'zod';
import type { ErrorEntry, Method } from '../../openapi/operation.js';
import type { ControlDeps } from '../plane-state.js';

/** `'/_emulator/keys/:id/revoke'` -> `'id'`: the path's parameter names, as Hono's `hc` reads them. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<P extends string> = { [Name in ParamNames<P>]: string };

/** What a handler receives: as Express parsed it, or as a client passed it. Each operation parses what it uses. */
export interface HandlerInput<P extends string> {
  params: PathParams<P>;
  query: unknown;
  body: unknown;
}

export interface ControlOperation<
  P extends string = string,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  O = unknown,
> {
  method: Method;
  /** Express form (`:id`); the document shows `{id}`. */
  path: P;
  summary: string;
  /** Default: the summary and a pointer to docs/control-plane.md. */
  description?: string;
  /** Of the answer; default 200. */
  status?: number;
  /** Codes beyond the plane guard's, JSON parsing's and 422 `invalid_control_request`'s, which follow from the rest. */
  errors?: ErrorEntry[];
  query?: Q;
  body?: B;
  /** express.json's limit for the body; default 1mb. */
  bodyLimit?: string;
  /** The answer's schema: a named component of the document. */
  answer: z.ZodType;
  handle(deps: ControlDeps, input: HandlerInput<P>): O | Promise<O>;
}

/** Keeps the literal path and the handler's answer type, so clients are typed from the declaration. */
export const defineOperation = <
  P extends string,
  O,
  Q extends z.ZodType = z.ZodNever,
  B extends z.ZodType = z.ZodNever,
>(
  op: ControlOperation<P, Q, B, O>,
) => op;

// biome-ignore lint/suspicious/noExplicitAny: any declaration, whatever its types
export type AnyOperation = ControlOperation<string, any, any, any>;

/** What a client passes: the path's parameters, the query and the body, typed from the declaration's zod inputs. */
export type CallInput<Op> =
  Op extends ControlOperation<infer P, infer Q, infer B, unknown>
    ? ([ParamNames<P>] extends [never] ? { params?: undefined } : { params: PathParams<P> }) & {
        query?: [Q] extends [z.ZodNever] ? undefined : z.input<Q>;
        body?: [B] extends [z.ZodNever] ? undefined : z.input<B>;
      }
    : never;

export type AnswerOf<Op> = Op extends ControlOperation<string, z.ZodType, z.ZodType, infer O> ? Awaited<O> : never;

/** The request path for these parameters, each encoded as one segment. */
export function pathFor(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name]));
}
