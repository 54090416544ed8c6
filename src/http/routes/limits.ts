// Request size limits from spec section 8.
export const JSON_BODY_LIMIT = 16 * 1024 * 1024;
