// The request-body bytes held at once across requests, under a cap: reserved before a body is read, released after.
export interface ByteBudget {
  /** Takes `bytes` if they fit beside what is held (one body alone may take more than the cap); false when they do not. */
  reserve(bytes: number): boolean;
  release(bytes: number): void;
  held(): number;
  readonly maxBytes: number;
}

/**
 * One per emulator. A body larger than the whole cap is let through when nothing else is held, so a small cap slows
 * large bodies down to one at a time instead of refusing them for ever.
 */
export function byteBudget(maxBytes: number): ByteBudget {
  let held = 0;
  return {
    maxBytes,
    reserve(bytes) {
      if (held > 0 && held + bytes > maxBytes) return false;
      held += bytes;
      return true;
    },
    release(bytes) {
      held -= bytes;
    },
    held: () => held,
  };
}
