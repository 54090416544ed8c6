// The order every exchange passes through, in one place: front door, guard, CORS, hooks, handler, gate, send, after.
import type { CorsPolicy } from './cors.js';
import type { ErrorAnswers } from './error-answers.js';
import {
  Exchange,
  isSilent,
  type Outcome,
  type ServiceRequest,
  type ServiceResponse,
  type TransportAction,
} from './exchange.js';
import type { FrontDoor } from './front-door.js';
import { isPlanePath } from './plane-path.js';
import { World, type WorldResolution } from './world.js';

/** What a hook decides before the handler runs: wait, answer in its place, or act on the way out (or all three). */
export interface Intervention {
  /** Wait this long first; when the client leaves meanwhile, nothing more is done. */
  delayMs?: number;
  /** Answered instead of the handler, once the body is read and dropped. */
  answer?: ServiceResponse;
  /** How the answer leaves (`dribble`, `lost_response`), or that none does (`reset`, `empty`, `hang`). */
  action?: TransportAction;
}

type Maybe<T> = T | undefined | Promise<T | undefined>;

/** A plugin's part in every exchange, each phase in the order the plugins are listed. */
export interface ExchangeHooks {
  /**
   * Before the handler, for every exchange past the guard and CORS: note what the exchange needs, or intervene. Every
   * hook runs; the first intervention is the one that acts.
   */
  before?(x: Exchange): Maybe<Intervention>;
  /**
   * Before the first byte of whatever goes out, the handler's answer, an error's, an intervention's, or none (an
   * exchange that ends with no answer passes too, so what led to it is committed before the client can tell). A
   * replacement goes out whole instead, with no action on the way; the first one wins.
   */
  gate?(x: Exchange, response: ServiceResponse | undefined): Maybe<ServiceResponse>;
  /** Once the exchange is over: answered, cut off, or abandoned by the client. */
  after?(x: Exchange, outcome: Outcome): void;
}

/** What carries the bytes: the host's side of one exchange. */
export interface Transport {
  /**
   * Writes the answer with `headers` (the answer's own and those added on the way), applying `action`; its body only
   * when `withBody` (a HEAD gets the GET's head, Content-Length included, and no body).
   */
  send(
    response: ServiceResponse,
    headers: Record<string, string>,
    action: TransportAction | undefined,
    withBody: boolean,
  ): void;
  /** Ends the exchange with no answer (`reset`, `empty`, `hang`). */
  abandon(action: TransportAction): void;
  /** Resolves true after `ms`, or false as soon as the client is gone. */
  wait(ms: number): Promise<boolean>;
  /** The client is gone: nothing more can reach it. */
  readonly gone: boolean;
}

export interface PipelineParts {
  frontDoor: FrontDoor;
  /** The world a request acts on: the default one, or one the registry of worlds (sandboxes) resolves. */
  world(request: ServiceRequest): World | WorldResolution;
  /** The plane's guard: runs on every request whose path names the plane at some depth, and throws its refusal. */
  guard?: (x: Exchange) => void;
  /** The CORS policy for the public API or the plane; undefined when the plane has none. */
  cors(plane: boolean): CorsPolicy | undefined;
  hooks: readonly ExchangeHooks[];
  errors: ErrorAnswers;
  log(line: string): void;
}

export interface Pipeline {
  /** Resolves the request at the front door, once. */
  open(request: ServiceRequest): Exchange;
  /** Runs the exchange to its answer and sends it through `transport`. */
  run(x: Exchange, transport: Transport): Promise<void>;
  /** The host says the exchange is over: the `after` hooks see how it ended. */
  finish(x: Exchange, outcome: Outcome): void;
}

const present = <F>(hooks: (F | undefined)[]): F[] => hooks.filter((h): h is F => h !== undefined);

export function createPipeline(parts: PipelineParts): Pipeline {
  const { frontDoor, errors, guard } = parts;
  const befores = present(parts.hooks.map((h) => h.before?.bind(h)));
  const gates = present(parts.hooks.map((h) => h.gate?.bind(h)));
  const afters = present(parts.hooks.map((h) => h.after?.bind(h)));

  /** 1-4: guard, CORS, the hooks; an answer when one is already decided (a preflight). */
  const prepare = async (x: Exchange): Promise<{ response?: ServiceResponse; intervention?: Intervention }> => {
    if (x.dispatch.plane && guard) guard(x);
    const policy = parts.cors(x.dispatch.plane && isPlanePath(x.request.path));
    if (policy) {
      if (x.request.method === 'OPTIONS') return { response: policy.preflight(x.request) };
      x.corsHeaders = policy.headers(x.request);
    }
    let intervention: Intervention | undefined;
    for (const before of befores) {
      let decided = before(x);
      if (decided instanceof Promise) decided = await decided;
      intervention ??= decided;
    }
    return { intervention };
  };

  /** 5: the handler's answer, or the front door's own (404, 405, 400). */
  const handle = (x: Exchange): ServiceResponse | Promise<ServiceResponse> => {
    const { route, miss } = x.dispatch;
    if (route) return route.handle(x);
    return errors.miss(miss ?? { reason: 'not_found' }, x.request);
  };

  /** 6: the gates, before the first byte; the first replacement wins and goes out whole. */
  const gate = async (x: Exchange, response: ServiceResponse | undefined): Promise<ServiceResponse | undefined> => {
    for (const each of gates) {
      let replaced = each(x, response);
      if (replaced instanceof Promise) replaced = await replaced;
      if (replaced) return replaced;
    }
    return undefined;
  };

  const merged = (x: Exchange, response: ServiceResponse): Record<string, string> =>
    x.corsHeaders || x.extraHeaders ? { ...response.headers, ...x.corsHeaders, ...x.extraHeaders } : response.headers;

  const run = async (x: Exchange, transport: Transport): Promise<void> => {
    let response: ServiceResponse | undefined;
    let action: TransportAction | undefined;
    try {
      const prepared = await prepare(x);
      response = prepared.response;
      const intervention = prepared.intervention;
      if (!response) {
        if (intervention?.delayMs && !(await transport.wait(intervention.delayMs))) return;
        action = intervention?.action;
        if (intervention?.answer) {
          await x.request.body.discard();
          response = intervention.answer;
        } else if (isSilent(action)) {
          if (action?.type !== 'reset') await x.request.body.discard();
        } else {
          try {
            let answered = handle(x);
            if (answered instanceof Promise) answered = await answered;
            response = answered;
          } catch (error) {
            response = errors.answer(error, x.request);
          }
        }
      }
    } catch (error) {
      // The guard's refusal, a hook's (a body the rules read ahead that was too large): answered, with no action.
      response = errors.answer(error, x.request);
      action = undefined;
    }
    try {
      const replaced = gates.length > 0 ? await gate(x, response) : undefined;
      if (replaced) {
        response = replaced;
        action = undefined;
      }
      if (transport.gone) return;
      if (response) transport.send(response, merged(x, response), action, x.request.method !== 'HEAD');
      else if (action) transport.abandon(action);
    } catch (error) {
      // A bug in a gate or the host: still an answer, never a hang.
      parts.log(
        `could not send the answer to ${x.request.method} ${x.request.path}: ${(error as Error).stack ?? error}`,
      );
      if (!transport.gone) {
        const failed = errors.answer(error, x.request);
        transport.send(failed, merged(x, failed), undefined, x.request.method !== 'HEAD');
      }
    }
  };

  return {
    open(request) {
      const found = parts.world(request);
      if (found instanceof World) return new Exchange(request, frontDoor.resolve(request), found, performance.now());
      // The world's routes see the path inside it; the rest of the request is the same object, read as it was.
      const inner: ServiceRequest =
        found.path === undefined ? request : Object.create(request, { path: { value: found.path } });
      const x = new Exchange(inner, frontDoor.resolve(inner), found.world, performance.now());
      x.worldAccess = found;
      return x;
    },
    run,
    finish(x, outcome) {
      for (const after of afters) {
        try {
          after(x, outcome);
        } catch (error) {
          parts.log(`an after-send hook failed on ${x.request.method} ${x.request.path}: ${(error as Error).message}`);
        }
      }
    },
  };
}
