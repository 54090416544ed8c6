// Answers a request Node's HTTP parser refused (headers over 16 KB, malformed framing) so the client can read the answer.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused connection may keep sending what it had started before it is cut. */
const LINGER_MS = 2_000;

/** Node's own answers for these errors (lib/_http_server.js); only the way the connection closes differs. */
function answerFor(code: string | undefined): string {
  const status =
    code === 'HPE_HEADER_OVERFLOW'
      ? '431 Request Header Fields Too Large'
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? '408 Request Timeout'
        : '400 Bad Request';
  return `HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`;
}

/**
 * Node's default writes the answer and destroys the socket at once. When the client is still sending (a 50 KB header
 * and then its body), closing with unread bytes makes the kernel send a reset, which can reach the client before the
 * answer does: the client sees ECONNRESET instead of 431. Here the answer is sent with a FIN, the rest of the request is
 * read and dropped, and the socket is cut only if the client keeps sending past LINGER_MS (as nginx's lingering close).
 */
export function answerClientErrors(server: Server): void {
  // Each connection's latest response: if it has begun and not finished, a second status line would corrupt it.
  const latest = new WeakMap<Socket, ServerResponse>();
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (response.socket) latest.set(response.socket, response);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const response = latest.get(socket);
    const midAnswer = response?.headersSent === true && !response.writableFinished;
    if (error.code === 'ECONNRESET' || midAnswer) {
      socket.destroy();
      return;
    }
    // Not writable: this side is already closing (an answer sent with Connection: close); still drain, not reset.
    if (socket.writable) socket.end(answerFor(error.code));
    socket.resume();
    socket.setTimeout(LINGER_MS, () => socket.destroy());
    socket.once('error', () => socket.destroy());
  });
}
