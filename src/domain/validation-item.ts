// One item of a FastAPI/Pydantic 422 `detail` array, members in the order the real service writes them.
export type Loc = (string | number)[];

export interface ValidationItem {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** Builds an item with members in Pydantic's order (type, loc, msg, input, ctx) so JSON bytes match. */
export function validationItem(
  type: string,
  loc: Loc,
  msg: string,
  input: unknown,
  ctx?: Record<string, unknown>,
): ValidationItem {
  const item: ValidationItem = { type, loc, msg, input };
  if (ctx !== undefined) item.ctx = ctx;
  return item;
}

/** `a, b, c` for a message, or `none`. */
export function listText(values: readonly string[]): string {
  return values.length === 0 ? 'none' : values.join(', ');
}
