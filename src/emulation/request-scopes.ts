// The per-request scope's shape, apart from the code that fills it: the plane's state (and so the published types) names
// it without importing Express.
/** Kept per response by the plane's state: the fault middleware and the journal share it, no global or async context. */
export interface RequestScope {
  keyId: number | null;
  idempotencyKey: string | null;
  /** The HTTP rule that acted on the request; a generation rule comes back through res.locals.planAdjustment. */
  faultId: string | null;
  /** Why that rule matched, for the request inspector. */
  faultReason: string | null;
  /** A lost-response fault dropped the answer the route produced: the journal still records its status. */
  lost: boolean;
}

/**
 * One emulator's scopes, keyed by the response object: an entry goes with its response, and two emulators share none.
 * Keyed by `object` rather than Express's Response so the published types need no @types/express.
 */
export type RequestScopes = WeakMap<object, RequestScope>;
