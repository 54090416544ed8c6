// The one interception of an app's response writes: plugins' hooks run there, in phases whose order is fixed here.
import type { Express, Response } from 'express';

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

/** Gets the whole body once the route has ended a held response; it then sends (part of) it with res.write/res.end. */
export type WholeBody = (body: Buffer) => void;

const HELD = Symbol('held body');
const WATCHED = Symbol('watched chunks');
const WAITING = Symbol('end held by a gate');

/** The arguments of an `end` that a gate holds back until it releases the response. */
interface WaitingEnd {
  chunk: unknown;
  encoding: unknown;
  callback: unknown;
}

interface PipelineResponse extends Response {
  [HELD]?: HeldBody;
  [WATCHED]?: (chunk: unknown, encoding: unknown) => void;
  [WAITING]?: WaitingEnd;
}

type Write = (this: PipelineResponse, chunk: unknown, encoding?: unknown, callback?: unknown) => unknown;

class HeldBody {
  readonly chunks: Buffer[] = [];
  constructor(readonly onWhole: WholeBody) {}

  keep(chunk: unknown, encoding: unknown) {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (Buffer.isBuffer(chunk)) this.chunks.push(chunk);
    else if (chunk instanceof Uint8Array) this.chunks.push(Buffer.from(chunk));
    else
      this.chunks.push(
        Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
  }
}

/**
 * Holds back what the route writes until it ends the response; `onWhole` then gets the whole body (a plugin that
 * dribbles or drops the answer). What it sends afterwards passes through beforeSend and onChunk like any answer.
 */
export function holdBody(res: Response, onWhole: WholeBody) {
  if (!(HELD in res)) throw new Error('holdBody: this response does not belong to an app built by buildApp');
  (res as PipelineResponse)[HELD] = new HeldBody(onWhole);
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
 *   2. beforeSend: before the first byte, each plugin's gate; the first replacement wins; at the end of a response a
 *                  gate may hold it (WAIT) and release it later, so several responses can share one commit;
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
    [HELD]?: HeldBody;
    [WATCHED]?: unknown;
    [WAITING]?: WaitingEnd;
  };
  // On the prototype, so every response has the same shape whether or not a plugin holds or a test watches it.
  proto[HELD] = undefined;
  proto[WATCHED] = undefined;
  proto[WAITING] = undefined;
  const { write, end } = proto;
  const finish = (res: PipelineResponse, chunk: unknown, encoding: unknown, callback: unknown) => {
    onChunk?.(res, chunk, encoding);
    res[WATCHED]?.(chunk, encoding);
    return end.call(res, chunk, encoding, callback);
  };
  // One function for every response, not a closure per request.
  const release: Release = (res: PipelineResponse, replacement) => {
    const waiting = res[WAITING];
    if (!waiting) return;
    res[WAITING] = undefined;
    if (replacement === undefined) return void finish(res, waiting.chunk, waiting.encoding, waiting.callback);
    if (res.headersSent) return void res.destroy();
    finish(res, replacement, 'utf8', waiting.callback);
  };
  proto.write = function (chunk, encoding, callback) {
    const held = this[HELD];
    if (held) {
      held.keep(chunk, encoding);
      const cb = typeof encoding === 'function' ? encoding : callback;
      if (typeof cb === 'function') queueMicrotask(() => (cb as () => void)());
      return true;
    }
    // A streamed answer cannot be swapped once started: one whose change was refused is cut off, never acknowledged.
    if (beforeSend && !this.headersSent && beforeSend(this) !== undefined) return void this.destroy();
    onChunk?.(this, chunk, encoding);
    this[WATCHED]?.(chunk, encoding);
    return write.call(this, chunk, encoding, callback);
  };
  proto.end = function (chunk, encoding, callback) {
    const held = this[HELD];
    if (held) {
      held.keep(chunk, encoding);
      this[HELD] = undefined;
      held.onWhole(Buffer.concat(held.chunks));
      return this;
    }
    // A second end while the first waits (a route that ends twice) is dropped, as Node drops an end after an end.
    if (this[WAITING]) return this;
    const replaced = beforeSend?.(this, release);
    if (replaced === WAIT) {
      this[WAITING] = { chunk, encoding, callback };
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
