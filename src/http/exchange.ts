// One request and its answer as plain values: what every handler takes and gives, whatever host carries the bytes.
import type { ApiKey } from '../domain/accounts.js';
import type { PlanAdjustment } from '../domain/context.js';
import { type BodyRead, readJsonBody } from './validation/json-body.js';
import type { World, WorldAccess } from './world.js';

/** What the host read of the request line and headers; the body is read on demand (RequestBody). */
export interface ServiceRequest {
  /** As sent. */
  readonly method: string;
  /** The raw pathname: no query, nothing decoded. */
  readonly path: string;
  /** After the `?`, '' when none (a record of the exchange keeps it). */
  readonly rawQuery: string;
  /** Node's querystring ('simple') reading: a repeated parameter is an array. */
  readonly query: Readonly<Record<string, string | string[]>>;
  /** Lower-case names; repeated headers joined as Node joins them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** `http` or `https`: how the client reached the host. */
  readonly scheme: string;
  /** The first of a repeated header, as Starlette's Headers.get reads it (`headers` has them joined). */
  firstHeader(name: string): string | undefined;
  readonly body: RequestBody;
}

/** A form as FastAPI reads it: the fields it names (repeated ones as arrays) and the one file part it takes. */
export interface FormRead {
  fields: Record<string, string | string[]>;
  file: FormFile | undefined;
  /** `multipart` or `urlencoded`; undefined when the body is neither, and was not read. */
  type: 'multipart' | 'urlencoded' | undefined;
}

export interface FormFile {
  filename: string;
  bytes: Uint8Array;
}

/** Which parts of a form a route reads. */
export interface FormSpec {
  fileField: string;
  fields: string[];
  maxFileBytes: number;
}

/** The body, read by the host: it enforces the limit, the body timeout and the cap on bytes held at once. */
export interface RequestBody {
  /** The request says it has a body (a Content-Length or chunked framing). */
  readonly present: boolean;
  readonly declaredLength: number | undefined;
  /** The bytes as sent (no Content-Encoding undone); a refusal (413, 408, 503) is a CodedError. */
  read(limit: number): Promise<Uint8Array>;
  /** A multipart/form-data or urlencoded form, read as Starlette reads it; any other type is left unread. */
  form(spec: FormSpec): Promise<FormRead>;
  /** Reads and drops what is left, so closing the connection is a clean FIN rather than a reset over unread data. */
  discard(): Promise<void>;
}

/** A stored file's bytes from `start` to `end` (inclusive), streamed by the host. */
export class FileBody {
  constructor(
    readonly path: string,
    readonly start: number,
    readonly end: number,
  ) {}

  get size(): number {
    return this.end < this.start ? 0 : this.end - this.start + 1;
  }
}

export type ResponseBody = string | Uint8Array | FileBody;

export interface ServiceResponse {
  status: number;
  /** Content-Type and Content-Length included: the host writes them as given. */
  headers: Record<string, string>;
  body?: ResponseBody;
}

/**
 * What the host does to the answer on its way out: cut the connection (`reset`, a TCP reset; `empty`, a close with no
 * answer), send nothing (`hang`), send the answer in pieces (`dribble`), or drop it once it is committed
 * (`lost_response`).
 */
export type TransportAction =
  | { type: 'reset' | 'empty' | 'hang' | 'lost_response' }
  | { type: 'dribble'; chunks: number; durationMs: number };

/** The actions that end an exchange with no answer at all: the handler never runs. */
export const isSilent = (action: TransportAction | undefined): boolean =>
  action !== undefined && (action.type === 'reset' || action.type === 'empty' || action.type === 'hang');

/** How an exchange ended, for the hooks that run after it. */
export interface Outcome {
  /** The status line that went out; 0 when none did (reset, empty, hang, the client gone first). A lost answer keeps its status. */
  status: number;
  /** The answer as produced (a HEAD's body included), undefined when none was. */
  response: ServiceResponse | undefined;
  /** The headers as written: the answer's, CORS's and any added by a hook. */
  headers: Record<string, string>;
  /** The whole answer reached the host's socket (finished), not cut off or dropped. */
  finished: boolean;
  action: TransportAction | undefined;
}

/** What the body limit is named in a refusal, kept beside the body's kind a route declares. */
export type BodySpec =
  /** The public API's JSON: the bytes as sent, parsed as FastAPI parses them. */
  | { kind: 'json'; limit: number }
  /** A form (the upload). */
  | { kind: 'form' }
  /** The control plane's JSON: parsed by the plane's own rules. */
  | { kind: 'plane-json'; limit: number };

/** public: the service's API; download: a signed output file; control: an operation of the plane; emulator: health, the document, the console. */
export type RouteKind = 'public' | 'download' | 'control' | 'emulator';
export type DispatchKind = RouteKind | 'unknown';

export type Handler = (x: Exchange) => ServiceResponse | Promise<ServiceResponse>;

/** One operation at one method and path: the route table's row. */
export interface RouteEntry {
  /** Upper case. HEAD is answered by the GET entry unless one is declared. */
  method: string;
  /** `/v1/media/generations/:generation_id`: literal segments and whole-segment parameters. */
  path: string;
  /** The operationId the OpenAPI document gives it. */
  operation: string;
  kind: RouteKind;
  /** Whether it can change state: the store's commit before the first byte reads this, not the method. */
  mutates: boolean;
  body?: BodySpec;
  handle: Handler;
}

/** How a path's other methods are answered. */
export interface PathOptions {
  /** The Allow header of a 405: the declared methods by default. */
  allow?: string[];
  /** `not_found`: a method no entry declares gets the 404 (the console's assets); by default a 405 with Allow. */
  otherMethods?: 'not_allowed' | 'not_found';
}

/** Why no route took the request, when none did: the front door's own answers. */
export type Miss =
  | { reason: 'not_found' }
  | { reason: 'not_allowed'; allow: string[] }
  /** A path parameter whose percent-encoding does not decode (the router decodes before it knows the method). */
  | { reason: 'bad_escape'; value: string };

export interface Dispatch {
  kind: DispatchKind;
  /** The entry's operationId; `routeNotFound` or `methodNotAllowed` when none took it. */
  operation: string;
  mutates: boolean;
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
  route: RouteEntry | undefined;
  miss: Miss | undefined;
  /** The path names the emulation plane at some depth of encoding: the plane's guard looks at it first. */
  plane: boolean;
}

/**
 * One exchange: the request, where the front door sent it, the world it acts on, and what handlers and hooks note on
 * the way (the key, the generation it made, a body already read). Plugins keep their own per-exchange state under
 * symbols of their own (`slot`), so nothing per request lives in a WeakMap or a closure.
 */
export class Exchange {
  /** Set by authentication; every public handler after it may rely on it. */
  apiKey: ApiKey | undefined = undefined;
  /** The generation a submission created or replayed. */
  generationId: string | undefined = undefined;
  /** Who adjusted the plan of a generation this request created, and why. */
  planAdjustment: PlanAdjustment | undefined = undefined;
  /** CORS's headers for whatever answer goes out (an object shared by many exchanges: never changed). */
  corsHeaders: Readonly<Record<string, string>> | undefined = undefined;
  /** Headers a hook added to whatever answer goes out (a plugin's marker). */
  extraHeaders: Record<string, string> | undefined = undefined;
  /** The bytes the body held, once read (a record of the exchange copies it). */
  bytes: Uint8Array | undefined = undefined;
  /** The form, once read. */
  formRead: FormRead | undefined = undefined;
  /** How the front door found a world other than the default one, for the plane's guard. */
  worldAccess: WorldAccess | undefined = undefined;
  private bytesReading: Promise<Uint8Array> | undefined = undefined;
  private jsonReading: Promise<BodyRead> | undefined = undefined;
  private formReading: Promise<FormRead> | undefined = undefined;
  readonly [slot: symbol]: unknown;

  constructor(
    readonly request: ServiceRequest,
    readonly dispatch: Dispatch,
    readonly world: World,
    /** performance.now() at arrival. */
    readonly startedAt: number,
  ) {}

  /** The body's bytes, read once, at most the limit the route declares. */
  readBytes(limit: number): Promise<Uint8Array> {
    this.bytesReading ??= this.request.body.read(limit).then((bytes) => (this.bytes = bytes));
    return this.bytesReading;
  }

  /** The public API's JSON body, read and parsed once, whoever asks first (a plugin ahead of the handler, or it). */
  json(): Promise<BodyRead> {
    const spec = this.dispatch.route?.body;
    if (spec?.kind !== 'json') throw new Error(`json(): ${this.dispatch.operation} declares no JSON body`);
    this.jsonReading ??= this.readBytes(spec.limit).then((bytes) =>
      readJsonBody(bytes, this.header('content-type'), this.header('content-encoding')),
    );
    return this.jsonReading;
  }

  /** The form, read once. */
  form(spec: FormSpec): Promise<FormRead> {
    this.formReading ??= this.request.body.form(spec).then((form) => (this.formRead = form));
    return this.formReading;
  }

  /** A header as one string: the first of an array (Node keeps Set-Cookie-like headers as arrays). */
  header(name: string): string | undefined {
    const value = this.request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  }

  /** Adds a header to whatever answer goes out. */
  addHeader(name: string, value: string): void {
    this.extraHeaders ??= {};
    this.extraHeaders[name] = value;
  }
}

/** A plugin's per-exchange value, kept on the exchange under a symbol of its own. */
export function exchangeSlot<T>(name: string) {
  const key = Symbol(name);
  return {
    get: (x: Exchange): T | undefined => (x as unknown as Record<symbol, T | undefined>)[key],
    set: (x: Exchange, value: T | undefined): void => {
      (x as unknown as Record<symbol, T | undefined>)[key] = value;
    },
  };
}
