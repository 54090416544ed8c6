// Request size limits from spec section 8, and how they are named in messages and the document.
export const JSON_BODY_LIMIT = 16 * 1024 * 1024;

/** "16 MiB": for error messages and the OpenAPI document, so they cannot drift from the limit. */
export const JSON_BODY_LIMIT_TEXT = `${JSON_BODY_LIMIT / (1024 * 1024)} MiB`;
