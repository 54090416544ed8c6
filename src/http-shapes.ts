// Node's HTTP types by shape, so the published .d.ts files import no node: module and compile without @types/node.

/**
 * `http.RequestListener` by shape: `http.createServer(app)`, supertest's `request(app)` and anything typed for Node's
 * listener accept it (a function that takes `unknown` takes an IncomingMessage).
 */
export type RequestListener = (request: unknown, response: unknown) => void;

/** The `http.Server` an emulator listens on, by shape; cast it to Node's `Server` for more. */
export interface HttpServer {
  /** Node's EventEmitter `on`: for example `server.on('request', (req: IncomingMessage) => ...)`. */
  on(event: string, listener: (...args: never[]) => void): this;
  address(): unknown;
}
