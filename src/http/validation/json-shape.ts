// The nesting depth of raw JSON text, measured without parsing it (a guard before deep recursion).

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
