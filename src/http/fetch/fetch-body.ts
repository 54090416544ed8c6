// A fetch Request's body as the exchange reads it: the bytes within a limit, a form, or dropped.
import { DomainError } from '../../domain/errors.js';
import { tooLarge, URLENCODED_LIMIT, urlencodedCharset, urlencodedForm } from '../body/form-rules.js';
import { UnreadableRequest } from '../error-answers.js';
import type { FormRead, FormSpec, RequestBody } from '../exchange.js';
import { mediaTypeOf } from '../media-type.js';
import { readMultipart } from './fetch-form.js';

const EMPTY = new Uint8Array(0);
const NO_FORM: FormRead = { fields: {}, file: undefined, type: undefined };

/**
 * The page built this body, so it is in memory already: no body timeout and no cap on bytes held across requests (the
 * Node host's), only the route's limit, checked as the bytes arrive.
 */
export class FetchBody implements RequestBody {
  constructor(private readonly request: Request) {}

  get present(): boolean {
    return this.request.body !== null;
  }

  get declaredLength(): number | undefined {
    const length = Number(this.request.headers.get('content-length') ?? Number.NaN);
    return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
  }

  async read(limit: number): Promise<Uint8Array> {
    const stream = this.request.body;
    if (stream === null) return EMPTY;
    if ((this.declaredLength ?? 0) > limit) {
      await this.discard();
      throw tooLarge(limit);
    }
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let received = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        if (received > limit) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge(limit);
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new UnreadableRequest(400, 'request aborted');
    }
    if (chunks.length === 1) return chunks[0];
    const bytes = new Uint8Array(received);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return bytes;
  }

  async form(spec: FormSpec): Promise<FormRead> {
    const stream = this.request.body;
    if (stream === null) return NO_FORM;
    const contentType = this.request.headers.get('content-type') ?? undefined;
    const type = mediaTypeOf(contentType);
    if (type === 'multipart/form-data')
      return readMultipart(stream, contentType ?? '', this.request.headers.get('content-encoding') ?? undefined, spec);
    if (type === 'application/x-www-form-urlencoded') {
      const charset = urlencodedCharset(contentType);
      return urlencodedForm(await this.read(URLENCODED_LIMIT), charset);
    }
    return NO_FORM;
  }

  /** The page's body is in memory already: it is dropped, not drained (a cancel that waits on the source may not settle). */
  async discard(): Promise<void> {
    const stream = this.request.body;
    if (stream !== null && !stream.locked) void stream.cancel().catch(() => undefined);
  }
}
