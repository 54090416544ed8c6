// Node's count of what zlib data inflates to (the host's InflatedLength), at a fixed memory cost: one reused output
// buffer, and the event loop given back often.
import { constants, createInflate } from 'node:zlib';
import type { InflatedLength } from '../inflated-length.js';

/** Output is decoded into one buffer of this size, again and again. */
const SLICE_BYTES = 64 * 1024;
/** Slices decoded between two turns of the event loop: 8 MiB, a few milliseconds of work. */
const SLICES_PER_TURN = 128;

/**
 * The zlib engine behind Node's Inflate stream. A stream allocates a new buffer per chunk of output: 128 MiB of output
 * is 2,048 buffers that V8 collects only once 64 MB of them are garbage (Node 24 measured +61 MB for one upload). Driving
 * the engine's `writeSync` into one buffer, as Node's own zlib.inflateSync does, holds 64 KB instead.
 */
interface ZlibEngine {
  _handle?: {
    writeSync(
      flush: number,
      input: Uint8Array,
      inOff: number,
      inLen: number,
      out: Buffer,
      outOff: number,
      outLen: number,
    ): void;
  };
  /** [output bytes left, input bytes left] after each write. */
  _writeState?: Uint32Array;
}

/** How many bytes `parts` (one zlib stream) inflate to, stopping once past `limit`; an Error when it is not valid zlib. */
export const nodeInflatedLength: InflatedLength = async (parts, limit) => {
  const stream = createInflate();
  const engine = stream as unknown as ZlibEngine;
  // zlib reports bad data by destroying the stream (stream.errored, at once), then emits 'error', which must be heard.
  const failed = new Promise<Error>((resolve) => stream.once('error', resolve));
  const { _handle: handle, _writeState: state } = engine;
  // A Node without these internals still gets the right answer, through the stream, at the stream's memory cost.
  if (!handle || !state) return inflatedLengthStreamed(stream, parts, limit, failed);
  const out = Buffer.allocUnsafe(SLICE_BYTES);
  let length = 0;
  let slices = 0;
  try {
    for (const [index, input] of parts.entries()) {
      const flush = index === parts.length - 1 ? constants.Z_FINISH : constants.Z_NO_FLUSH;
      let offset = 0;
      let available = input.length;
      for (;;) {
        handle.writeSync(flush, input, offset, available, out, 0, SLICE_BYTES);
        if (stream.destroyed) return stream.errored ?? new Error('the zlib stream was closed');
        const [outputLeft, inputLeft] = state;
        length += SLICE_BYTES - outputLeft;
        offset += available - inputLeft;
        available = inputLeft;
        if (length > limit) return length;
        // Room left in the output: zlib has used all the input it was given (or reached the stream's end).
        if (outputLeft !== 0) break;
        if (++slices % SLICES_PER_TURN === 0) await new Promise(setImmediate);
      }
    }
    return length;
  } finally {
    stream.destroy();
  }
};

function inflatedLengthStreamed(
  stream: ReturnType<typeof createInflate>,
  parts: readonly Uint8Array[],
  limit: number,
  failed: Promise<Error>,
): Promise<number | Error> {
  return new Promise((resolve) => {
    let length = 0;
    stream.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) {
        stream.destroy();
        resolve(length);
      }
    });
    void failed.then(resolve);
    stream.on('end', () => resolve(length));
    for (const part of parts) stream.write(part);
    stream.end();
  });
}
