// Comparing a secret a client sent (an admin token, a URL signature, a cursor tag) with the one expected, in a time that
// tells the client nothing about the expected one.

/**
 * The loop runs over the given text (its length is the client's own) and reads the expected one cyclically, so the
 * time taken depends neither on where the two differ nor on the expected length. Plain JavaScript, the same on every
 * host: the texts compared are strings on both sides, which node:crypto's timingSafeEqual would first have to copy
 * into buffers (that cost more than the comparison).
 */
export function sameSecret(given: string, expected: string): boolean {
  if (expected.length === 0) return given.length === 0;
  let difference = given.length ^ expected.length;
  for (let i = 0; i < given.length; i++) difference |= given.charCodeAt(i) ^ expected.charCodeAt(i % expected.length);
  return difference === 0;
}
