// The one interception of an app's response writes: plugins' hooks run there, in phases whose order is fixed here.
import type { Express, Response } from 'express';
import { HeldBody, type WholeBody } from './held-body.js';

/** What a gate that said WAIT calls, once, to let the response go: as it is, or with `replacement` as its body. */
export type Release = (res: Response, replacement?: string) => void;

/** A gate's answer that holds the response back until the gate calls `release` (the store's group commit). */
export const WAIT: unique symbol = Symbol('wait for release');

/**
 * Runs before the first byte of each response goes out (the store of record commits there). It may return a body that
 * replaces the answer, after setting the status and headers for it on `res`. Given `release` (a response's end, not a
 * streamed write), it may also answer WAIT and call `release` later; a gate that waits is the last to see the response.
 */
export type BeforeSend = (res: Response, release?: Release) => string | undefined | typeof WAIT;

/** Sees each chunk as it goes out, with the first two arguments of `res.write`/`res.end`. */
export type ChunkHook = (res: Response, chunk: unknown, encoding: unknown) => void;

/** Runs once the exchange is over ('close': answered, cut off, or abandoned by the client). */
export type AfterSend = (res: Response) => void;

/** One plugin's hooks. A response passes through the phases in this order, and through plugins in the given order. */
export interface ResponseHooks {
  beforeSend?: BeforeSend;
  onChunk?: ChunkHook;
  afterSend?: AfterSend;
}

const HELD = Symbol('held body');
const WATCHED = Symbol('watched chunks');
const WAITING = Symbol('end held by a gate');
const GATED = Symbol('first byte past the gates');
const PASS_GATES = Symbol('run the gates, then act');

/** Past the gates before any byte went out: the answer may go (PASSED), or their refusal went instead (REFUSED). */
const PASSED = 1;
const REFUSED = 2;

/**
 * What a gate holds back until it releases the response: the arguments of the route's `end`, or (`instead`) what is to
 * happen in its place: a held body's holder, or an exchange that ends without an answer.
 */
interface WaitingEnd {
  chunk: unknown;
  encoding: unknown;
  callback: unknown;
  instead: (() => void) | undefined;
}

interface PipelineResponse extends Response {
  [HELD]?: HeldBody;
  [WATCHED]?: (chunk: unknown, encoding: unknown) => void;
  [WAITING]?: WaitingEnd;
  [GATED]?: typeof PASSED | typeof REFUSED;
  [PASS_GATES]?: (res: PipelineResponse, act: () => void) => void;
}

type Write = (this: PipelineResponse, chunk: unknown, encoding?: unknown, callback?: unknown) => unknown;
type WriteHead = (this: PipelineResponse, statusCode: number, reason?: unknown, headers?: unknown) => unknown;

/**
 * Holds back what the route writes until it ends the response. That end is the answer's first byte for the gates
 * (beforeSend); once they let it go, `onWhole` gets the whole body (a plugin that dribbles or drops the answer), and
 * what it sends passes through onChunk like any answer. When a gate refuses (the change was rolled back), its refusal
 * goes out as it is and `onWhole` is never called: what was to be done to the answer was rolled back with it.
 */
export function holdBody(res: Response, onWhole: WholeBody) {
  if (!(HELD in res)) throw new Error('holdBody: this response does not belong to an app built by buildApp');
  (res as PipelineResponse)[HELD] = new HeldBody(onWhole);
}

/**
 * For an exchange that ends with no answer of the route's (a reset, a closed socket, silence): the gates see `act` as
 * the first byte, so what led to it is committed before the client can tell; `act` runs once they let it go, and when
 * one refuses, its refusal is sent instead.
 */
export function beforeFirstByte(res: Response, act: () => void) {
  if (!(PASS_GATES in res))
    throw new Error('beforeFirstByte: this response does not belong to an app built by buildApp');
  const pipelined = res as PipelineResponse;
  pipelined[PASS_GATES]?.(pipelined, act);
}

/** Shows one response's outgoing chunks to `watch`, after every plugin's hooks (the test suite's contract checker). */
export function watchChunks(res: Response, watch: (chunk: unknown, encoding: unknown) => void) {
  if (!(WATCHED in res)) throw new Error('watchChunks: this response does not belong to an app built by buildApp');
  (res as PipelineResponse)[WATCHED] = watch;
}

function inOrder<F extends (...args: never[]) => unknown>(hooks: (F | undefined)[]): F[] {
  return hooks.filter((hook): hook is F => hook !== undefined);
}

function firstReplacement(gates: BeforeSend[]): BeforeSend | undefined {
  if (gates.length <= 1) return gates[0];
  return (res, release) => {
    for (const gate of gates) {
      const replaced = gate(res, release);
      if (replaced !== undefined) return replaced;
    }
    return undefined;
  };
}

function each<A extends unknown[]>(hooks: ((...args: A) => void)[]): ((...args: A) => void) | undefined {
  if (hooks.length <= 1) return hooks[0];
  return (...args) => {
    for (const hook of hooks) hook(...args);
  };
}

/**
 * Installs the pipeline on this app. Express gives each app its own response prototype (`app.response`), so wrapping
 * write/end there serves this app only, while wrapping them on every response cost a few percent of each request
 * (closures, and own properties that change the response object's shape under Node's HTTP code). A response goes:
 *   1. hold:       a held response's chunks are kept back until its end (see holdBody);
 *   2. beforeSend: before the first byte, each plugin's gate; the first replacement wins; at the end of a response (or
 *                  of a held one, or before an exchange ends with no answer) a gate may hold it (WAIT) and release it
 *                  later, so several responses can share one commit. The first byte is whichever comes first: the
 *                  end, a write, or the head (writeHead, flushHeaders);
 *   3. onChunk:    each plugin sees the chunk, then a watchChunks observer;
 *   4. the real write/end;
 *   5. afterSend:  on 'close', each plugin's hook.
 * Returns the middleware that arms afterSend, to run before any other (undefined when no plugin has one).
 */
export function installResponsePipeline(app: Express, plugins: ResponseHooks[]) {
  const beforeSend = firstReplacement(inOrder(plugins.map((p) => p.beforeSend)));
  const onChunk = each(inOrder(plugins.map((p) => p.onChunk)));
  const afterSend = each(inOrder(plugins.map((p) => p.afterSend)));
  const proto = app.response as unknown as {
    write: Write;
    end: Write;
    writeHead: WriteHead;
    [HELD]?: HeldBody;
    [WATCHED]?: unknown;
    [WAITING]?: WaitingEnd;
    [GATED]?: typeof PASSED | typeof REFUSED;
    [PASS_GATES]: NonNullable<PipelineResponse[typeof PASS_GATES]>;
  };
  // On the prototype, so every response has the same shape whether or not a plugin holds or a test watches it.
  proto[HELD] = undefined;
  proto[WATCHED] = undefined;
  proto[WAITING] = undefined;
  proto[GATED] = undefined;
  const { write, end, writeHead } = proto;
  /** The response whose real write/end is running: the head Node writes for it has passed the gates already. */
  let sending: PipelineResponse | undefined;
  const through = (res: PipelineResponse, real: Write, chunk: unknown, encoding: unknown, callback: unknown) => {
    const outer = sending;
    sending = res;
    try {
      return real.call(res, chunk, encoding, callback);
    } finally {
      sending = outer;
    }
  };
  const finish = (res: PipelineResponse, chunk: unknown, encoding: unknown, callback: unknown) => {
    onChunk?.(res, chunk, encoding);
    res[WATCHED]?.(chunk, encoding);
    return through(res, end, chunk, encoding, callback);
  };
  /** What was to happen instead of the route's end, once the gates have let it go, or their refusal in its place. */
  const actOrRefuse = (res: PipelineResponse, act: () => void, replacement: string | undefined) => {
    if (replacement !== undefined)
      return void (res.headersSent ? res.destroy() : finish(res, replacement, 'utf8', undefined));
    res[GATED] = PASSED;
    act();
  };
  // One function for every response, not a closure per request.
  const release: Release = (res: PipelineResponse, replacement) => {
    const waiting = res[WAITING];
    if (!waiting) return;
    res[WAITING] = undefined;
    if (waiting.instead) return actOrRefuse(res, waiting.instead, replacement);
    if (replacement === undefined) return void finish(res, waiting.chunk, waiting.encoding, waiting.callback);
    if (res.headersSent) return void res.destroy();
    finish(res, replacement, 'utf8', waiting.callback);
  };
  const passGates = (res: PipelineResponse, act: () => void) => {
    const replaced = beforeSend?.(res, release);
    if (replaced === WAIT) res[WAITING] = { chunk: undefined, encoding: undefined, callback: undefined, instead: act };
    else actOrRefuse(res, act, replaced);
  };
  proto[PASS_GATES] = passGates;
  // Node writes the head from write/end (through `this.writeHead`); anything else that writes it first (a route's
  // writeHead, flushHeaders) is the first byte, and passes the gates here. No `release`: the head cannot wait.
  proto.writeHead = function (statusCode, reason, headers) {
    if (sending === this || this[GATED] !== undefined || !beforeSend || this.headersSent)
      return writeHead.call(this, statusCode, reason, headers);
    const replaced = beforeSend(this);
    if (replaced === undefined || replaced === WAIT) {
      this[GATED] = PASSED;
      return writeHead.call(this, statusCode, reason, headers);
    }
    // The refusal goes out whole instead of this head; what the route writes after it is dropped.
    this[GATED] = REFUSED;
    finish(this, replaced, 'utf8', undefined);
    return this;
  };
  proto.write = function (chunk, encoding, callback) {
    const held = this[HELD];
    if (held || this[GATED] === REFUSED) {
      held?.keep(chunk, encoding);
      const cb = typeof encoding === 'function' ? encoding : callback;
      if (typeof cb === 'function') queueMicrotask(() => (cb as () => void)());
      return true;
    }
    // A streamed answer cannot be swapped once started: one whose change was refused is cut off, never acknowledged.
    if (beforeSend && !this.headersSent && this[GATED] === undefined && beforeSend(this) !== undefined)
      return void this.destroy();
    onChunk?.(this, chunk, encoding);
    this[WATCHED]?.(chunk, encoding);
    return through(this, write, chunk, encoding, callback);
  };
  proto.end = function (chunk, encoding, callback) {
    const held = this[HELD];
    if (held) {
      held.keep(chunk, encoding);
      this[HELD] = undefined;
      // The holder decides what the client gets (all, in pieces, nothing): after the gates, as any first byte.
      passGates(this, () => held.onWhole(Buffer.concat(held.chunks)));
      return this;
    }
    // A second end while the first waits (a route that ends twice) is dropped, as Node drops an end after an end.
    if (this[WAITING]) return this;
    // Its first byte passed the gates already (a head written first, a held answer sent in pieces), or was refused.
    const gated = this[GATED];
    if (gated !== undefined) return gated === PASSED ? finish(this, chunk, encoding, callback) : this;
    const replaced = beforeSend?.(this, release);
    if (replaced === WAIT) {
      this[WAITING] = { chunk, encoding, callback, instead: undefined };
      return this;
    }
    if (replaced !== undefined) {
      if (this.headersSent) return void this.destroy();
      [chunk, encoding] = [replaced, 'utf8'];
    }
    return finish(this, chunk, encoding, callback);
  };
  if (!afterSend) return undefined;
  // One listener function for every response (`this` is the response): no closure per request.
  function sent(this: Response) {
    afterSend?.(this);
  }
  return (_req: unknown, res: Response, next: () => void) => {
    res.on('close', sent);
    next();
  };
}
