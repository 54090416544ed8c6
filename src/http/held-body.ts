// What a held response keeps of the route's writes until its end: the chunks, then the whole body for its holder.

/**
 * Gets the whole body once the route has ended a held response and the gates have let it go; it then sends (part of)
 * it with res.write/res.end, or drops it.
 */
export type WholeBody = (body: Buffer) => void;

export class HeldBody {
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
