// A ServiceRequest over Node's IncomingMessage: the path and query split once, the rest read when first asked for.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { ServiceRequest } from '../exchange.js';
import { type BodyReading, NodeBody } from './node-body.js';

/** `scheme://authority` in front of an absolute-form request target (`GET http://host/path HTTP/1.1`). */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

export class NodeRequest implements ServiceRequest {
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string;
  private parsedQuery: Record<string, string | string[]> | undefined = undefined;
  private nodeBody: NodeBody | undefined = undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly reading: BodyReading,
  ) {
    this.method = req.method ?? 'GET';
    let url = req.url ?? '/';
    // The target as parseurl read it for Express: an absolute form's path, no fragment.
    if (url.charCodeAt(0) !== 47 /* / */) {
      const absolute = ABSOLUTE_FORM.exec(url);
      if (absolute) url = url.slice(absolute[0].length) || '/';
    }
    const fragment = url.indexOf('#');
    if (fragment !== -1) url = url.slice(0, fragment);
    const query = url.indexOf('?');
    this.path = query === -1 ? url : url.slice(0, query);
    this.rawQuery = query === -1 ? '' : url.slice(query + 1);
  }

  get headers(): IncomingMessage['headers'] {
    return this.req.headers;
  }

  get scheme(): string {
    return (this.req.socket as { encrypted?: boolean } | null)?.encrypted ? 'https' : 'http';
  }

  /** Node's querystring reading (Express's 'simple' parser): repeated parameters as arrays, at most 1000 keys. */
  get query(): Record<string, string | string[]> {
    this.parsedQuery ??= this.rawQuery === '' ? {} : (parseQuery(this.rawQuery) as Record<string, string | string[]>);
    return this.parsedQuery;
  }

  /**
   * Starlette's Headers.get returns the first of repeated headers (Node joins them with ", " in `headers`). Read from
   * rawHeaders: `headersDistinct` builds arrays for every header on first use, a cost on each submission.
   */
  firstHeader(name: string): string | undefined {
    // Most requests have no such header at all, and some callers ask every request for one (its Idempotency-Key).
    if (this.req.headers[name] === undefined) return undefined;
    const raw = this.req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2)
      if (raw[i].length === name.length && raw[i].toLowerCase() === name) return raw[i + 1];
    return undefined;
  }

  get body(): NodeBody {
    this.nodeBody ??= new NodeBody(this.req, this.res, this.reading);
    return this.nodeBody;
  }
}
