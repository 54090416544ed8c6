// The Node side of one exchange: writes the answer (files streamed), performs transport actions on the socket, tells how it ended.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { FileBody, type Outcome, type ServiceResponse, type TransportAction } from '../exchange.js';
import type { Transport } from '../pipeline.js';

/**
 * Node's timers hold at most 2^31 - 1 ms (24.8 days) and fire after 1 ms past it: a longer delay waits this long
 * instead, which to a client is the same hang.
 */
const LONGEST_TIMER_MS = 2 ** 31 - 1;
const later = (run: () => void, ms: number) => setTimeout(run, Math.min(ms, LONGEST_TIMER_MS));

const NO_HEADERS: Record<string, string> = {};

/** The bytes of a file range, for an answer sent in pieces. */
async function fileBytes(body: FileBody): Promise<Buffer> {
  const whole = await readFile(body.path);
  return whole.subarray(body.start, body.end + 1);
}

export class NodeTransport implements Transport {
  gone = false;
  private sent: ServiceResponse | undefined = undefined;
  private sentHeaders: Record<string, string> = NO_HEADERS;
  private action: TransportAction | undefined = undefined;
  /** A lost answer was produced and committed, then the connection was cut: its status still counts. */
  private lost = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {}

  /** The client left, or the exchange is over ('close', on every path). */
  close(): void {
    this.gone = true;
  }

  outcome(): Outcome {
    const { res, sent } = this;
    return {
      status: this.lost && sent ? sent.status : res.headersSent ? res.statusCode : 0,
      response: sent,
      headers: this.sentHeaders,
      finished: !this.lost && res.writableFinished,
      action: this.action,
    };
  }

  send(
    response: ServiceResponse,
    headers: Record<string, string>,
    action: TransportAction | undefined,
    withBody: boolean,
  ): void {
    const { res } = this;
    if (res.destroyed) return;
    this.sent = response;
    this.sentHeaders = headers;
    this.action = action;
    if (action?.type === 'lost_response') {
      // The work is done and committed; the client never hears of it.
      this.lost = true;
      this.req.socket.destroy();
      return;
    }
    res.writeHead(response.status, headers);
    const body = withBody ? response.body : undefined;
    if (action?.type === 'dribble') return void this.dribble(body, action);
    if (!(body instanceof FileBody)) return void res.end(body);
    if (body.size === 0) return void res.end();
    pipeline(createReadStream(body.path, { start: body.start, end: body.end }), res, (error) => {
      if (error && !res.destroyed) res.destroy();
    });
  }

  abandon(action: TransportAction): void {
    this.action = action;
    if (this.res.destroyed) return;
    // RST, not FIN: clients see ECONNRESET.
    if (action.type === 'reset') this.req.socket.resetAndDestroy();
    else if (action.type === 'empty') this.req.socket.end();
    // hang: nothing is ever sent; the exchange ends when the client gives up or the emulator closes.
  }

  wait(ms: number): Promise<boolean> {
    if (this.gone) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = later(() => {
        this.res.off('close', gone);
        resolve(!this.gone);
      }, ms);
      // A client that gives up during the delay frees the timer at once.
      const gone = () => {
        clearTimeout(timer);
        resolve(false);
      };
      this.res.once('close', gone);
    });
  }

  /** The head now, then the body in `chunks` pieces spread over the duration. */
  private dribble(body: ServiceResponse['body'], action: Extract<TransportAction, { type: 'dribble' }>): void {
    const { res } = this;
    res.flushHeaders();
    if (body === undefined) return void res.end();
    const start = (bytes: Uint8Array) => {
      const size = Math.max(1, Math.ceil(bytes.length / action.chunks));
      const pieces = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
        bytes.subarray(i * size, (i + 1) * size),
      );
      const gap = pieces.length > 1 ? action.durationMs / (pieces.length - 1) : 0;
      const send = (i: number) => {
        if (res.destroyed) return;
        if (i >= pieces.length) return void res.end();
        res.write(pieces[i]);
        if (i + 1 >= pieces.length) return void res.end();
        later(() => send(i + 1), gap);
      };
      send(0);
    };
    if (body instanceof FileBody)
      fileBytes(body).then(start, () => {
        if (!res.destroyed) res.destroy();
      });
    else start(typeof body === 'string' ? Buffer.from(body) : body);
  }
}
