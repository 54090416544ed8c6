// Bearer authentication for every /v1/media route, run before the body is read or validated.
import type { ApiKey } from '../domain/accounts.js';
import type { Exchange } from './exchange.js';

/** The calling key, noted on the exchange (hooks that record or match the exchange read it there); throws the 401. */
export function authenticate(x: Exchange): ApiKey {
  const key = x.world.runtime.context().accounts.authenticate(x.header('authorization'));
  x.apiKey = key;
  return key;
}
