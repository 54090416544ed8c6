// Notices a request body that has stopped arriving: no byte on its connection for a whole period.
import type { IncomingMessage } from 'node:http';

/**
 * Calls `onStall` once when a period of `periodMs` passes with no byte read from the request's socket and the body
 * not yet complete; answers the function that stops watching. The socket's own byte count is read, not the body's
 * stream: listening to 'data' would start the body flowing before its reader is ready. A stall is therefore noticed
 * between one and two periods after the last byte. A socket timeout is not used: Node destroys the socket when one
 * fires after the body is complete and nobody listens on the response.
 */
export function watchStall(req: IncomingMessage, periodMs: number, onStall: () => void): () => void {
  const socket = req.socket as IncomingMessage['socket'] | null;
  // A request that comes through no socket of ours (an adapter's stand-in) gives no count to watch.
  if (typeof socket?.bytesRead !== 'number') return () => {};
  let seen = socket.bytesRead;
  let stopped = false;
  // Complete: its reader finishes by itself. Destroyed: the exchange is over, and 'close' releases what it held.
  const over = () => stopped || req.complete || socket.destroyed;
  const moved = () => {
    const read = socket.bytesRead;
    if (read === seen) return false;
    seen = read;
    timer.refresh();
    return true;
  };
  const timer = setTimeout(() => {
    if (over() || moved()) return;
    // Timers run before the loop reads sockets: after a loop blocked for a whole period, bytes may be waiting unread.
    // setImmediate runs once they have been read.
    setImmediate(() => {
      if (!over() && !moved()) onStall();
    });
  }, periodMs);
  // A watch never keeps the process alive: the server does that while it listens.
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
