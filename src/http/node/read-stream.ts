// Reading a request's stream: all of it within a limit, or what is left dropped.
import type { IncomingMessage } from 'node:http';
import { tooLarge } from '../body/form-rules.js';
import { UnreadableRequest } from '../error-answers.js';

export const EMPTY = new Uint8Array(0);

/** Reads what is left and drops it; settles once the request is over (read whole, or cut off). */
export function dump(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed || req.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      req.off('end', done);
      req.off('close', done);
      resolve();
    };
    req.on('end', done);
    req.on('close', done);
    req.resume();
  });
}

/**
 * The body's bytes, at most `limit`: past it, the rest is read and dropped, then refused (413), as body-parser did.
 * A client that goes away mid-body is answered 400 (nobody reads it).
 */
export function collect(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  if (req.readableEnded) return Promise.resolve(EMPTY);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) return void chunks.push(chunk);
      cleanup();
      chunks.length = 0;
      void dump(req).then(() => reject(tooLarge(limit)));
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new UnreadableRequest(400, error.message));
    };
    const onClose = () => {
      if (req.complete) return;
      cleanup();
      reject(new UnreadableRequest(400, 'request aborted'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
