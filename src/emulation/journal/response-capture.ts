// The head of one answer as the route writes it: the first BODY_CAP bytes kept, the rest only counted.
import { BODY_CAP, type CapturedBody, captureBody } from './journal-store.js';

const isUtf8 = (encoding: unknown) => encoding === undefined || encoding === 'utf8' || encoding === 'utf-8';

export class ResponseCapture {
  // Short text chunks are kept as strings (no copy); anything else, or what passes the cap, as the bytes of its head.
  private readonly kept: (Buffer | string)[] = [];
  private keptBytes = 0;
  private total = 0;

  /** Takes what `res.write`/`res.end` were given, with the same arguments. */
  see(chunk: unknown, encoding: unknown) {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (typeof chunk === 'string' && isUtf8(encoding)) {
      const bytes = Buffer.byteLength(chunk);
      this.total += bytes;
      if (this.keptBytes + bytes <= BODY_CAP) {
        this.kept.push(chunk);
        this.keptBytes += bytes;
      } else if (this.keptBytes <= BODY_CAP)
        // A JSON answer can be far longer than what is kept: encode only its head.
        this.keep(Buffer.from(chunk.length > BODY_CAP + 1 ? chunk.slice(0, BODY_CAP + 1) : chunk));
      return;
    }
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk)
        : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    this.total += buffer.length;
    if (this.keptBytes <= BODY_CAP) this.keep(buffer);
  }

  /** What was written, or null when nothing was. */
  body(contentType: string | null): CapturedBody | null {
    if (this.total === 0) return null;
    const kept = this.kept;
    const whole = kept.every((k) => typeof k === 'string')
      ? kept.join('')
      : Buffer.concat(kept.map((k) => (typeof k === 'string' ? Buffer.from(k) : k)));
    return { ...captureBody(whole, contentType), bytes: this.total, truncated: this.total > BODY_CAP };
  }

  private keep(buffer: Buffer) {
    const room = BODY_CAP + 1 - this.keptBytes;
    this.kept.push(buffer.subarray(0, room));
    this.keptBytes += Math.min(buffer.length, room);
  }
}
