// A request body read from Node's stream: the bytes as sent (as Starlette reads them), within a deadline for the next
// byte, and under a byte cap shared by every request in flight.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../../domain/errors.js';
import { type ByteBudget, byteBudget } from '../body/byte-budget.js';
import type { FormRead, FormSpec, RequestBody } from '../exchange.js';
import { limitText } from '../routes/limits.js';
import { maxFormHeld, tooLarge } from '../body/form-rules.js';
import { readForm } from './node-form.js';
import { collect, dump, EMPTY } from './read-stream.js';
import { watchStall } from './stall-watch.js';

export interface BodyReadingOptions {
  /** A body that gets no byte for this long is answered 408 and its connection closed. */
  bodyTimeoutMs: number;
  /** Bytes that the bodies being read (and the requests holding them) may take at once. */
  maxBufferedBodyBytes: number;
}

/** One per emulator: the deadline and the shared cap. */
export interface BodyReading {
  readonly timeoutMs: number;
  readonly budget: ByteBudget;
}

export const bodyReading = (options: BodyReadingOptions): BodyReading => ({
  timeoutMs: options.bodyTimeoutMs,
  budget: byteBudget(options.maxBufferedBodyBytes),
});

/** A client told the cap is full may try again this soon: bodies in flight end within a request's time. */
const RETRY_AFTER_SECONDS = 1;

function busy(budget: ByteBudget, bytes: number): DomainError {
  return new DomainError(
    'server_busy',
    `The request bodies being read already hold ${limitText(budget.held())} of the ${limitText(budget.maxBytes)} cap, and this one needs ${limitText(bytes)}; nothing was read. Retry after ${RETRY_AFTER_SECONDS} s, or start the emulator with a larger --max-buffered-body-bytes.`,
    { retry_after_seconds: RETRY_AFTER_SECONDS },
  );
}

function stalled(timeoutMs: number): DomainError {
  return new DomainError(
    'request_timeout',
    `The request body stopped arriving: no byte for ${timeoutMs} ms. Send the whole body without pausing, or start the emulator with a longer --body-timeout.`,
  );
}

/** Node's request body, read on demand by the exchange (once: the exchange keeps what it read). */
export class NodeBody implements RequestBody {
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly reading: BodyReading,
  ) {}

  /** type-is's hasBody: a request with a body says how it is framed. */
  get present(): boolean {
    const { headers } = this.req;
    return headers['transfer-encoding'] !== undefined || headers['content-length'] !== undefined;
  }

  get declaredLength(): number | undefined {
    const length = Number(this.req.headers['content-length']);
    return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
  }

  async read(limit: number): Promise<Uint8Array> {
    if (!this.present) return EMPTY;
    // A declared length past the limit is refused before a byte is kept: it reserves nothing.
    if ((this.declaredLength ?? 0) > limit) {
      await dump(this.req);
      throw tooLarge(limit);
    }
    return this.guarded(limit, () => collect(this.req, limit));
  }

  async form(spec: FormSpec): Promise<FormRead> {
    if (!this.present) return { fields: {}, file: undefined, type: undefined };
    return this.guarded(maxFormHeld(spec.maxFileBytes), () => readForm(this.req, spec));
  }

  discard(): Promise<void> {
    return dump(this.req);
  }

  /**
   * Runs `read` under the deadline and the cap, reserving what the declared length says, at most `maxHeld`: what
   * `read` can hold, however long the body is. The reservation goes when the exchange does ('close' comes on every
   * path: answered, refused, cut off by the client or by a stall).
   */
  private guarded<T>(maxHeld: number, read: () => Promise<T>): Promise<T> {
    const { budget, timeoutMs } = this.reading;
    const bytes = Math.min(this.declaredLength ?? maxHeld, maxHeld);
    if (!budget.reserve(bytes)) return Promise.reject(busy(budget, bytes));
    this.res.once('close', () => budget.release(bytes));
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const stopWatching = watchStall(this.req, timeoutMs, () => {
        settled = true;
        // The client is not sending: closing after the answer frees what the reader holds.
        this.res.setHeader('Connection', 'close');
        reject(stalled(timeoutMs));
      });
      read().then(
        (value) => {
          stopWatching();
          if (settled) return;
          settled = true;
          resolve(value);
        },
        (error: unknown) => {
          stopWatching();
          if (settled) return;
          settled = true;
          reject(error);
        },
      );
    });
  }
}
