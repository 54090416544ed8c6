// How many bytes zlib data inflates to, stopping past a limit: a host service (Node: node:zlib; a browser: DecompressionStream).

/**
 * How many bytes `parts` (one zlib stream, in order) inflate to, stopping once past `limit`; an Error when they are
 * not valid zlib. Held to a bounded memory cost whatever the data claims (the PNG check of uploads calls it).
 */
export type InflatedLength = (parts: readonly Uint8Array[], limit: number) => Promise<number | Error>;

/**
 * The web platform's: DecompressionStream('deflate') is zlib (RFC 1950), as PNG's image data is. Output is counted
 * chunk by chunk and dropped; the stream is cancelled once the count passes the limit, so a bomb costs what was
 * decoded up to there.
 */
export const streamInflatedLength: InflatedLength = async (parts, limit) => {
  const inflating = new Blob(parts as Uint8Array<ArrayBuffer>[])
    .stream()
    .pipeThrough(new DecompressionStream('deflate'));
  const reader = inflating.getReader();
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return length;
      length += value.byteLength;
      if (length > limit) {
        await reader.cancel().catch(() => undefined);
        return length;
      }
    }
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
};
