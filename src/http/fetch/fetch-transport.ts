// The fetch side of one exchange: the answer as a fetch Response; a reset, an empty close or a lost answer as a network error.
import { FileBody, type Outcome, type ServiceResponse, type TransportAction } from '../exchange.js';
import type { Transport } from '../pipeline.js';

/** A stored output's bytes, from the host's file store (Node: the renderer's directory). */
export type ReadFileBody = (body: FileBody) => Promise<Uint8Array>;

/** Browsers' and Node's timers hold at most 2^31 - 1 ms: a longer delay waits that long, the same hang to a client. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;
/** Statuses whose Response may carry no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

const bytesOf = (body: string | Uint8Array): Uint8Array<ArrayBuffer> =>
  typeof body === 'string' ? new TextEncoder().encode(body) : (new Uint8Array(body) as Uint8Array<ArrayBuffer>);

export class FetchTransport implements Transport {
  /** The Response for the page, or a network error; never settles on `hang` until the page gives up. */
  readonly answer: Promise<Response>;
  private settle!: (response: Response) => void;
  private sent: ServiceResponse | undefined = undefined;
  private sentHeaders: Record<string, string> = {};
  private action: TransportAction | undefined = undefined;
  private status = 0;

  constructor(
    private readonly signal: AbortSignal,
    private readonly readFile: ReadFileBody,
  ) {
    this.answer = new Promise((resolve) => {
      this.settle = resolve;
    });
    signal.addEventListener('abort', () => this.settle(Response.error()), { once: true });
  }

  get gone(): boolean {
    return this.signal.aborted;
  }

  outcome(): Outcome {
    const lost = this.action?.type === 'lost_response';
    return {
      status: lost && this.sent ? this.sent.status : this.status,
      response: this.sent,
      headers: this.sentHeaders,
      finished: this.sent !== undefined && !lost,
      action: this.action,
    };
  }

  send(
    response: ServiceResponse,
    headers: Record<string, string>,
    action: TransportAction | undefined,
    withBody: boolean,
  ): void {
    this.sent = response;
    this.sentHeaders = headers;
    this.action = action;
    // The work is done and committed; the page never hears of it.
    if (action?.type === 'lost_response') return void this.settle(Response.error());
    this.status = response.status;
    const body = withBody && !NO_BODY.has(response.status) ? response.body : undefined;
    const bytes = body instanceof FileBody ? this.readFile(body) : body === undefined ? undefined : bytesOf(body);
    const init = { status: response.status, headers };
    if (action?.type === 'dribble' && bytes !== undefined)
      return void this.settle(new Response(dribbled(bytes, action), init));
    if (bytes instanceof Promise)
      return void bytes.then(
        (data) => this.settle(new Response(data as Uint8Array<ArrayBuffer>, init)),
        () => this.settle(Response.error()),
      );
    this.settle(new Response(bytes ?? null, init));
  }

  abandon(action: TransportAction): void {
    this.action = action;
    // reset and empty: the connection is cut with no answer; hang: nothing, until the page aborts its request.
    if (action.type !== 'hang') this.settle(Response.error());
  }

  wait(ms: number): Promise<boolean> {
    if (this.gone) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.signal.removeEventListener('abort', gone);
          resolve(!this.gone);
        },
        Math.min(ms, LONGEST_TIMER_MS),
      );
      const gone = () => {
        clearTimeout(timer);
        resolve(false);
      };
      this.signal.addEventListener('abort', gone, { once: true });
    });
  }
}

/** The body in `chunks` pieces spread over the duration: the first at once, the last at its end. */
function dribbled(
  bytes: Uint8Array | Promise<Uint8Array>,
  action: Extract<TransportAction, { type: 'dribble' }>,
): ReadableStream<Uint8Array> {
  let pieces: Uint8Array[] | undefined;
  let gap = 0;
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (!pieces) {
        const whole = await bytes;
        const size = Math.max(1, Math.ceil(whole.length / action.chunks));
        pieces = Array.from({ length: Math.ceil(whole.length / size) }, (_, i) =>
          whole.subarray(i * size, (i + 1) * size),
        );
        gap = pieces.length > 1 ? action.durationMs / (pieces.length - 1) : 0;
      } else await new Promise((resolve) => setTimeout(resolve, Math.min(gap, LONGEST_TIMER_MS)));
      if (next < pieces.length) controller.enqueue(pieces[next++]);
      if (next >= pieces.length) controller.close();
    },
  });
}
