// What one request carries between middleware and routes (res.locals), typed in one place.
import type { Request, Response } from 'express';
import type { ApiKey } from '../domain/accounts.js';
import type { PlanAdjustment } from '../domain/context.js';
import { type BodyRead, readJsonBody } from './validation/json-body.js';

declare global {
  namespace Express {
    interface Locals {
      /** Set by authenticate(); every /v1/media route after it may rely on it. */
      apiKey?: ApiKey;
      /** A JSON body already read by middleware that looked at it first; the route reuses it instead of parsing again. */
      bodyRead?: BodyRead;
      /** The generation a submission created or replayed, for whoever records the exchange. */
      generationId?: string;
      /** Who adjusted the plan of a generation this request created, and why, for whoever records the exchange. */
      planAdjustment?: PlanAdjustment;
    }
  }
}

/** The authenticated key; only after authenticate(). */
export function apiKeyOf(res: Response): ApiKey {
  const key = res.locals.apiKey;
  if (!key) throw new Error('apiKeyOf() before authenticate(): the route must authenticate first.');
  return key;
}

/** The request's JSON body, parsed once whoever asks first. */
export function jsonBodyOf(req: Request, res: Response): BodyRead {
  res.locals.bodyRead ??= readJsonBody(
    req.body as Buffer | undefined,
    req.headers['content-type'],
    req.headers['content-encoding'],
  );
  return res.locals.bodyRead;
}
