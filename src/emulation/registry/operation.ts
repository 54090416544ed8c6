// One control operation as data: method, path, documented input and answer, and the handler both clients end up calling.
import type * as z from 'zod';
import type { ErrorEntry, Method } from '../../openapi/operation.js';
import { parseInput } from '../inputs.js';
import type { ControlDeps } from '../plane-state.js';

/** `'/_emulator/keys/:id/revoke'` -> `'id'`: the path's parameter names, as Hono's `hc` reads them. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type PathParams<P extends string> = { [Name in ParamNames<P>]: string };

/** What a handler receives: the path's parameters, query and body (parsed if the declaration names its `input`). */
export interface HandlerInput<P extends string, Q = unknown, B = unknown> {
  params: PathParams<P>;
  query: Q;
  body: B;
}

/** A declared schema's output once the registry parsed it; what was sent when the declaration names no `input`. */
type Received<S extends z.ZodType, L> = [L] extends [string] ? z.output<S> : unknown;

export interface ControlOperation<
  P extends string = string,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  O = unknown,
  L extends string | undefined = string | undefined,
> {
  method: Method;
  /** Route form (`:id`); the document shows `{id}`. */
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
  /**
   * What the query or body is called in its refusal, "The balance change is not valid: ..." (422
   * invalid_control_request): the registry parses them with their schemas before `handle`. Without it they reach
   * `handle` as sent, for a parse with a code of its own (a fault rule, a scenario, a state).
   */
  input?: L;
  /** The body's limit in bytes; default 1 MiB. */
  bodyLimit?: number;
  /** The answer's schema: a named component of the document. */
  answer: z.ZodType;
  handle(deps: ControlDeps, input: HandlerInput<P, Received<Q, L>, Received<B, L>>): O | Promise<O>;
}

/** Keeps the literal path and the handler's answer type, so clients are typed from the declaration. */
export const defineOperation = <
  P extends string,
  O,
  Q extends z.ZodType = z.ZodNever,
  B extends z.ZodType = z.ZodNever,
  L extends string | undefined = undefined,
>(
  op: ControlOperation<P, Q, B, O, L>,
) => op;

// biome-ignore lint/suspicious/noExplicitAny: any declaration, whatever its types
export type AnyOperation = ControlOperation<string, any, any, any, any>;

/** What a declaration's handler receives. */
export type ParsedInput<Op extends AnyOperation> = Parameters<Op['handle']>[1];

/** A query and body the declaration names an `input` for, parsed with its schemas (an absent one as `{}`). */
export function parseOperationInput<Op extends AnyOperation>(
  op: Op,
  { params = {}, query, body }: Partial<HandlerInput<string>>,
): ParsedInput<Op> {
  const parse = (schema: z.ZodType | undefined, sent: unknown) =>
    op.input !== undefined && schema ? parseInput(schema, sent, op.input) : sent;
  return { params, query: parse(op.query, query), body: parse(op.body, body) };
}

/**
 * Runs a declaration's handler on what was sent, as the route read it or as a client passed it: the one way in for the
 * routes (control-routes.ts), the in-process client (the remote client through the routes) and scenario steps.
 */
export function runOperation<Op extends AnyOperation>(
  op: Op,
  deps: ControlDeps,
  input: Partial<HandlerInput<string>>,
): ReturnType<Op['handle']> {
  return op.handle(deps, parseOperationInput(op, input));
}

/** What a client passes: the path's parameters, the query and the body, typed from the declaration's zod inputs. */
export type CallInput<Op> =
  Op extends ControlOperation<infer P, infer Q, infer B, unknown>
    ? ([ParamNames<P>] extends [never] ? { params?: undefined } : { params: PathParams<P> }) & {
        query?: [Q] extends [z.ZodNever] ? undefined : z.input<Q>;
        body?: [B] extends [z.ZodNever] ? undefined : z.input<B>;
      }
    : never;

export type AnswerOf<Op> = Op extends ControlOperation<string, z.ZodType, z.ZodType, infer O> ? Awaited<O> : never;
