// Facts about raw JSON text that JSON.parse loses: nesting depth, and the source order of integer-like member names.

/** Deepest array/object nesting in the text; strings are skipped. Linear and allocation-free. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) max = depth;
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

const INTEGER_LIKE = /^(0|[1-9]\d{0,8})$/;

/** JavaScript lists integer-like keys ("1") first; Python keeps insertion order. Only then is the source order needed. */
export function hasIntegerLikeKeys(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).some((k) => INTEGER_LIKE.test(k))
  );
}

/** Member names of the top-level object in the order they appear in the text (the text is valid JSON). */
export function topLevelKeyOrder(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (depth === 1 && expectKey) keys.push(JSON.parse(text.slice(i, j + 1)) as string);
      expectKey = false;
      i = j;
    } else if (ch === '{' || ch === '[') {
      depth++;
      expectKey = depth === 1 && ch === '{';
    } else if (ch === '}' || ch === ']') depth--;
    else if (ch === ',' && depth === 1) expectKey = true;
  }
  return keys;
}
