// Lets a plugin see every chunk this app's responses write, through one wrapper per app rather than a pair per response.
import type { Express, Response } from 'express';

/** Called with the response and the first two arguments of each `res.write`/`res.end`, before they run. */
export type WriteWatcher = (res: Response, chunk: unknown, encoding: unknown) => void;

/**
 * Runs before the first byte of each response goes out (the store of record commits there). It may return a body that
 * replaces the answer, after setting the status and headers for it on `res`.
 */
export type ResponseGate = (res: Response) => string | undefined;

type Write = (this: Response, chunk: unknown, encoding?: unknown, callback?: unknown) => unknown;

/**
 * Express gives each app its own response prototype (`app.response`), so wrapping write/end there serves this app
 * only, while wrapping them on every response cost a few percent of each request (closures, and own properties that
 * change the response object's shape under Node's HTTP code).
 */
export function watchResponseWrites(app: Express, watch: WriteWatcher | undefined, gate?: ResponseGate) {
  const proto = app.response as unknown as { write: Write; end: Write };
  const { write, end } = proto;
  proto.write = function (this: Response, chunk, encoding, callback) {
    // A streamed answer cannot be swapped once started: one whose change was refused is cut off, never acknowledged.
    if (gate && !this.headersSent && gate(this) !== undefined) return void this.destroy();
    watch?.(this, chunk, encoding);
    return write.call(this, chunk, encoding, callback);
  };
  proto.end = function (this: Response, chunk, encoding, callback) {
    const replaced = gate?.(this);
    if (replaced !== undefined) {
      if (this.headersSent) return void this.destroy();
      [chunk, encoding] = [replaced, 'utf8'];
    }
    watch?.(this, chunk, encoding);
    return end.call(this, chunk, encoding, callback);
  };
}
