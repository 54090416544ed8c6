// A /v1/media exchange the journal has opened and not yet recorded.
import type { RequestScope } from '../request-scopes.js';
import type { ResponseCapture } from './response-capture.js';

/** What the journal notes of a /v1/media request when it arrives, and the head of its answer as it goes out. */
export interface OpenExchange {
  readonly capture: ResponseCapture;
  readonly at: number;
  readonly started: number;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly scope: RequestScope;
}
