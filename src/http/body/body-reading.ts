// How the public API reads a request body: the bytes as sent (as Starlette reads them), within a deadline for the next
// byte, and under a byte cap shared by every request in flight.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { DomainError } from '../../domain/errors.js';
import { limitText } from '../routes/limits.js';
import { type ByteBudget, byteBudget } from './byte-budget.js';
import { watchStall } from './stall-watch.js';

export interface BodyReadingOptions {
  /** A body that gets no byte for this long is answered 408 and its connection closed. */
  bodyTimeoutMs: number;
  /** Bytes that the bodies being read (and the requests holding them) may take at once. */
  maxBufferedBodyBytes: number;
}

export interface BodyReading {
  /** Reads the whole body, at most `limit` bytes, into `req.body` as a Buffer, whatever its Content-Encoding says. */
  bytes(limit: number): RequestHandler;
  /**
   * Runs `read`, a reader of its own (a form parser), under the same deadline and cap, reserving what the declared
   * length says, at most `maxHeld`: what `read` can hold, however long the body is.
   */
  guarded(maxHeld: number, read: RequestHandler): RequestHandler;
  /** Bytes reserved by the requests in flight. */
  held(): number;
}

/** A client told the cap is full may try again this soon: bodies in flight end within a request's time. */
const RETRY_AFTER_SECONDS = 1;

/** Marks a response whose request holds its reservation already (a body read ahead, then read again by the route). */
const GUARDED = Symbol('body guarded');
type GuardLocals = Record<typeof GUARDED, true | undefined>;
const guardOf = (res: Response) => res.locals as GuardLocals;

/** type-is's hasBody: a request with a body says how it is framed. */
const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;

const declaredLength = (req: Request): number | undefined => {
  const length = Number(req.headers['content-length']);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
};

/**
 * body-parser decodes gzip, deflate and br bodies (or refuses any other coding with 415); FastAPI never does, and
 * answers the bytes as sent (400, a 422 or a 500, by what they are). body-parser picks its stream from this header
 * before it reads a byte, so hiding the header for that call reads the bytes as sent. The header is back before
 * anything else runs, including a `next` that body-parser calls at once.
 */
export function asSent(parse: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const coding = req.headers['content-encoding'];
    if (coding === undefined) return parse(req, res, next);
    const restore = () => {
      req.headers['content-encoding'] = coding;
    };
    delete req.headers['content-encoding'];
    try {
      parse(req, res, (error?: unknown) => {
        restore();
        next(error);
      });
    } finally {
      restore();
    }
  };
}

export function bodyReading(options: BodyReadingOptions): BodyReading {
  const budget = byteBudget(options.maxBufferedBodyBytes);

  const guarded = (maxHeld: number, read: RequestHandler): RequestHandler => {
    return (req, res, next) => {
      if (!hasBody(req) || guardOf(res)[GUARDED]) return read(req, res, next);
      const bytes = Math.min(declaredLength(req) ?? maxHeld, maxHeld);
      if (!budget.reserve(bytes)) return next(busy(budget, bytes));
      guardOf(res)[GUARDED] = true;
      // 'close' comes on every path: answered, refused, cut off by the client or by a stall.
      res.once('close', () => budget.release(bytes));
      let settled = false;
      const stopWatching = watchStall(req, options.bodyTimeoutMs, () => {
        settled = true;
        // The client is not sending: closing after the answer frees what the reader holds.
        res.setHeader('Connection', 'close');
        next(stalled(options.bodyTimeoutMs));
      });
      read(req, res, (error?: unknown) => {
        stopWatching();
        if (settled) return;
        settled = true;
        next(error);
      });
    };
  };

  return {
    bytes(limit) {
      const raw = asSent(express.raw({ type: () => true, limit }));
      const reserved = guarded(limit, raw);
      // A declared length past the limit is refused before a byte is read: it reserves nothing.
      return (req, res, next) => ((declaredLength(req) ?? 0) > limit ? raw(req, res, next) : reserved(req, res, next));
    },
    guarded,
    held: budget.held,
  };
}

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
