// The Express routes of the registry: one route per path, its methods in declaration order, 405 with Allow otherwise.
import express, { type Request, type RequestHandler, Router } from 'express';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import type { ControlDeps } from '../plane-state.js';
import { type AnyOperation, runOperation } from './operation.js';
import { operationEntries } from './registry.js';

const DEFAULT_BODY_LIMIT = '1mb';

/**
 * express.json reads only a JSON content type and leaves any other body unread, which an operation would take for an
 * absent body ("(root): is required"): such a body is refused as unreadable (415), naming the content type to send.
 */
const bodyIsJson: RequestHandler = (req, _res, next) => {
  const { 'content-length': length, 'transfer-encoding': chunked } = req.headers;
  if (req.body !== undefined || (chunked === undefined && (length === undefined || length === '0'))) return next();
  const sent = req.headers['content-type'] ?? 'no Content-Type';
  next(
    Object.assign(new Error(`a body sent as ${sent}; send it as JSON with Content-Type: application/json`), {
      status: 415,
    }),
  );
};

function handler(op: AnyOperation, deps: (req: Request) => ControlDeps): RequestHandler {
  return async (req, res) => {
    const answer = await runOperation(op, deps(req), { params: req.params, query: req.query, body: req.body });
    sendJson(res, op.status ?? 200, answer);
  };
}

/** The control plane under /_emulator/* (the plane guard in front checks Host and token). Never under /v1/media. */
export function controlRoutes(deps: (req: Request) => ControlDeps): Router {
  const router = Router({ caseSensitive: true });
  const byPath = new Map<string, AnyOperation[]>();
  for (const [, op] of operationEntries()) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  for (const [path, ops] of byPath) {
    const route = router.route(path);
    for (const op of ops) {
      // Only a declared body is parsed: anything sent to another operation is left unread.
      const body = op.body ? [express.json({ limit: op.bodyLimit ?? DEFAULT_BODY_LIMIT }), bodyIsJson] : [];
      route[op.method](...body, handler(op, deps));
    }
    route.all(methodNotAllowed(ops.map((op) => op.method.toUpperCase())));
  }
  return router;
}
