// What an HTTP-level fault does to one exchange: an error status, latency, a reset, an empty answer, a hang, a dribble, a lost answer.
import { errorAnswer } from '../../http/answers.js';
import type { ServiceResponse } from '../../http/exchange.js';
import type { Intervention } from '../../http/pipeline.js';
import type { HttpFaultAction, LatencySpec } from './fault-schema.js';

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

/** Lognormal draws are capped, so one unlucky sample cannot hold a request for hours. */
const DEFAULT_LOGNORMAL_CAP_MS = 60_000;

/** A draw from a rule's latency spec with the emulator's seeded random, so a seed repeats the delays too. */
function sampleLatency(spec: LatencySpec, random: () => number): number {
  switch (spec.distribution) {
    case 'fixed':
      return spec.ms ?? 0;
    case 'uniform': {
      const min = spec.min_ms ?? 0;
      const max = spec.max_ms ?? min;
      return Math.round(min + (max - min) * random());
    }
    case 'lognormal': {
      // Box-Muller: two uniform draws give one standard normal.
      const u1 = Math.max(random(), Number.EPSILON);
      const u2 = random();
      const normal = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      const ms = (spec.median_ms ?? 0) * Math.exp((spec.sigma ?? 0) * normal);
      return Math.round(Math.min(ms, spec.max_ms ?? DEFAULT_LOGNORMAL_CAP_MS));
    }
  }
}

const delay = (spec: LatencySpec | undefined, random: () => number) => (spec ? sampleLatency(spec, random) : 0);

function statusAnswer(action: Extract<HttpFaultAction, { type: 'status' }>): ServiceResponse {
  const [code, message] = STATUS_DEFAULTS[action.status] ?? [
    action.status >= 500 ? 'internal_error' : 'bad_request',
    `The request failed with status ${action.status}.`,
  ];
  const retryAfterMs = action.retry_after ?? (action.status === 429 ? 1000 : undefined);
  const seconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  const answer = errorAnswer(
    action.status,
    action.code ?? code,
    action.message ?? message,
    seconds === undefined ? undefined : { retry_after_seconds: seconds },
  );
  if (seconds !== undefined) answer.headers['Retry-After'] = String(seconds);
  return answer;
}

/**
 * What the pipeline does for one firing: an answer in the route's place (after its latency, the body read and
 * dropped), a wait before the route, or an action on the way out. Every action reaches the client after the store's
 * commit of what led to it (the rule's counters, and for a lost or dribbled answer the route's work); an exchange
 * with no answer passes the same gate. When that commit is refused the client gets the refusal (507) instead, since
 * the rule's firing was rolled back too.
 */
export function httpIntervention(action: HttpFaultAction, random: () => number): Intervention {
  switch (action.type) {
    case 'status':
      return { delayMs: delay(action.latency, random), answer: statusAnswer(action) };
    case 'latency':
      return { delayMs: sampleLatency(action, random) };
    case 'reset':
    case 'empty':
    case 'lost_response':
      return { delayMs: delay(action.latency, random), action: { type: action.type } };
    case 'hang':
      // Nothing is ever sent; the exchange ends when the client gives up or the emulator closes.
      return { action: { type: 'hang' } };
    case 'dribble':
      return {
        delayMs: delay(action.latency, random),
        action: { type: 'dribble', chunks: action.chunks, durationMs: action.duration },
      };
  }
}
