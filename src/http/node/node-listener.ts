// The Node host: a RequestListener (http.createServer(listener), supertest's request(listener)) over the neutral pipeline.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Exchange } from '../exchange.js';
import type { Pipeline } from '../pipeline.js';
import type { BodyReading } from './node-body.js';
import { NodeRequest } from './node-request.js';
import { NodeTransport } from './node-transport.js';

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** One exchange per request; the `after` hooks run on 'close', which comes on every path. */
export function nodeListener(pipeline: Pipeline, reading: BodyReading): NodeListener {
  const ended = (x: Exchange, transport: NodeTransport) => {
    transport.close();
    pipeline.finish(x, transport.outcome());
  };
  return (req, res) => {
    const x = pipeline.open(new NodeRequest(req, res, reading));
    const transport = new NodeTransport(req, res);
    res.once('close', () => ended(x, transport));
    void pipeline.run(x, transport);
  };
}
