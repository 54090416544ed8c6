// What an HTTP-level fault does to one exchange: an error status, latency, a reset, an empty answer, a hang, a dribble, a lost answer.
import type { Request, Response } from 'express';
import type { HttpFaultAction, LatencySpec } from './fault-schema.js';
import { sampleLatency } from './latency.js';
import { sendError } from '../../http/send.js';
import type { RequestScope } from '../request-scopes.js';
import { beforeFirstByte, holdBody } from '../../http/response-pipeline.js';

/** Codes and messages a real gateway or service would send for each status, when the rule gives none. */
const STATUS_DEFAULTS: Record<number, [string, string]> = {
  429: [
    'rate_limited',
    'Too many requests. Wait for the time in the Retry-After header, then retry with the same Idempotency-Key.',
  ],
  500: ['internal_error', 'The service hit an internal error. Retry with the same Idempotency-Key.'],
  502: ['bad_gateway', 'The gateway got an invalid answer from the service. Retry with the same Idempotency-Key.'],
  503: [
    'service_unavailable',
    'The service is temporarily unavailable. Retry with the same Idempotency-Key after a short wait.',
  ],
  504: [
    'gateway_timeout',
    'The gateway timed out waiting for the service; the request may or may not have been processed. Retry with the same Idempotency-Key.',
  ],
};

interface FaultExchange {
  req: Request;
  res: Response;
  scope: RequestScope;
  random: () => number;
  /** Hands the request on to the routes. */
  proceed: () => void;
}

/**
 * Node's timers hold at most 2^31 - 1 ms (24.8 days) and fire after 1 ms past it: a longer delay waits this long
 * instead, which to a client is the same hang.
 */
const LONGEST_TIMER_MS = 2 ** 31 - 1;
const wait = (run: () => void, ms: number) => setTimeout(run, Math.min(ms, LONGEST_TIMER_MS));

function afterLatency(spec: LatencySpec | undefined, x: FaultExchange, run: () => void) {
  const ms = spec ? sampleLatency(spec, x.random) : 0;
  if (ms <= 0) return run();
  const timer = wait(() => {
    if (!x.res.destroyed) run();
  }, ms);
  // A client that gives up during the delay frees the timer at once.
  x.res.once('close', () => clearTimeout(timer));
}

/** Reads and discards the request body, so closing the socket is a clean FIN rather than a reset over unread data. */
function drain(req: Request, then: () => void) {
  if (req.complete) return then();
  req.once('end', then);
  req.resume();
}

function sendStatus(action: Extract<HttpFaultAction, { type: 'status' }>, x: FaultExchange) {
  const [code, message] = STATUS_DEFAULTS[action.status] ?? [
    action.status >= 500 ? 'internal_error' : 'bad_request',
    `The request failed with status ${action.status}.`,
  ];
  const retryAfterMs = action.retry_after ?? (action.status === 429 ? 1000 : undefined);
  const seconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  if (seconds !== undefined) x.res.setHeader('Retry-After', String(seconds));
  drain(x.req, () =>
    sendError(
      x.res,
      action.status,
      action.code ?? code,
      action.message ?? message,
      seconds === undefined ? undefined : { retry_after_seconds: seconds },
    ),
  );
}

function dribble(action: Extract<HttpFaultAction, { type: 'dribble' }>, x: FaultExchange) {
  // Called once the answer's change is committed: the head and the first piece go out after it, never before.
  holdBody(x.res, (body) => {
    x.res.flushHeaders();
    const size = Math.max(1, Math.ceil(body.length / action.chunks));
    const pieces = Array.from({ length: Math.ceil(body.length / size) }, (_, i) =>
      body.subarray(i * size, (i + 1) * size),
    );
    const gap = pieces.length > 1 ? action.duration / (pieces.length - 1) : 0;
    const send = (i: number) => {
      if (x.res.destroyed) return;
      if (i >= pieces.length) return void x.res.end();
      x.res.write(pieces[i]);
      if (i + 1 >= pieces.length) return void x.res.end();
      wait(() => send(i + 1), gap);
    };
    send(0);
  });
  x.proceed();
}

/**
 * Every action reaches the client after the store's commit of what led to it (the rule's counters, and for a lost or
 * dribbled answer the route's work): an exchange with no answer passes the same gate as an answer (beforeFirstByte).
 * When that commit is refused the client gets the refusal (507) instead, since the rule's firing was rolled back too.
 */
export function performHttpFault(action: HttpFaultAction, x: FaultExchange) {
  switch (action.type) {
    case 'status':
      return afterLatency(action.latency, x, () => sendStatus(action, x));
    case 'latency':
      return afterLatency(action, x, x.proceed);
    case 'reset':
      // RST, not FIN: clients see ECONNRESET.
      return afterLatency(action.latency, x, () => beforeFirstByte(x.res, () => x.req.socket.resetAndDestroy()));
    case 'empty':
      return afterLatency(action.latency, x, () =>
        drain(x.req, () => beforeFirstByte(x.res, () => x.req.socket.end())),
      );
    case 'hang':
      // Nothing is ever sent; the exchange ends when the client gives up or the emulator closes.
      return drain(x.req, () => beforeFirstByte(x.res, () => undefined));
    case 'dribble':
      return afterLatency(action.latency, x, () => dribble(action, x));
    case 'lost_response':
      return afterLatency(action.latency, x, () => {
        // The route does all its work (charge, generation, idempotency record); once committed, the answer is dropped.
        holdBody(x.res, () => {
          x.scope.lost = true;
          x.req.socket.destroy();
        });
        x.proceed();
      });
  }
}
