// Request size limits from spec section 8, and how they are named in messages and the document.
export const JSON_BODY_LIMIT = 16 * 1024 * 1024;

/** A byte limit as messages name it: "16 MiB", "1 MiB", "100 KiB" or "1000 bytes". */
export const limitText = (bytes: number): string =>
  bytes % 1_048_576 === 0 ? `${bytes / 1_048_576} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;

/** "16 MiB": for error messages and the OpenAPI document, so they cannot drift from the limit. */
export const JSON_BODY_LIMIT_TEXT = limitText(JSON_BODY_LIMIT);
