// Holds back the body a route writes, so a fault can dribble it slowly or drop it after the work is done.
import type { Response } from 'express';

type Write = (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;
type End = (chunk?: unknown, encoding?: unknown, callback?: unknown) => Response;

export interface TappedOutput {
  /** The route's own write and end, to send (part of) the body for real. */
  write: (chunk: Buffer) => boolean;
  end: () => void;
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return undefined;
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

/** Replaces res.write/res.end until the route ends the response; `onEnd` then gets the whole body and the real write/end. */
export function tapResponse(res: Response, onEnd: (body: Buffer, output: TappedOutput) => void) {
  const write = res.write.bind(res) as Write;
  const end = res.end.bind(res) as End;
  const chunks: Buffer[] = [];
  res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const buffer = toBuffer(chunk, encoding);
    if (buffer) chunks.push(buffer);
    const cb = typeof encoding === 'function' ? encoding : callback;
    if (typeof cb === 'function') queueMicrotask(() => (cb as () => void)());
    return true;
  }) as Response['write'];
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    const buffer = toBuffer(chunk, encoding);
    if (buffer) chunks.push(buffer);
    res.write = write as Response['write'];
    res.end = end as Response['end'];
    onEnd(Buffer.concat(chunks), { write: (c) => write(c), end: () => void end() });
    return res;
  }) as Response['end'];
}
