// A ServiceRequest over a fetch Request (msw's handlers, a service worker): the URL split once, the query read as Node reads it.
import { parseNodeQuery } from '../body/node-query.js';
import type { ServiceRequest } from '../exchange.js';
import { FetchBody } from './fetch-body.js';

export class FetchRequest implements ServiceRequest {
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly scheme: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: FetchBody;
  private parsedQuery: Record<string, string | string[]> | undefined = undefined;

  constructor(request: Request) {
    this.method = request.method;
    const url = new URL(request.url);
    this.path = url.pathname;
    this.rawQuery = url.search.slice(1);
    this.scheme = url.protocol.slice(0, -1);
    const headers: Record<string, string> = {};
    // fetch's Headers are lower-case already, repeated ones joined with ", " as Node joins them.
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // A page's fetch sends no Host header (the browser adds it on the wire): the URL's authority is what it names.
    headers.host ??= url.host;
    this.headers = headers;
    this.body = new FetchBody(request);
  }

  get query(): Record<string, string | string[]> {
    this.parsedQuery ??= parseNodeQuery(this.rawQuery);
    return this.parsedQuery;
  }

  /** fetch joins a repeated header before anyone sees it: the first of them cannot be told apart from the rest. */
  firstHeader(name: string): string | undefined {
    return this.headers[name];
  }
}
