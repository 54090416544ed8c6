// Sends probe requests one at a time, at most `rps` a second, waiting out a 429's Retry-After; never throws on an answer.
export type Auth = 'key' | 'scoped' | 'none' | { authorization: string };

export interface ProbeRequest {
  method: 'GET' | 'POST';
  /** Relative to the base URL, starting with /v1/media. */
  path: string;
  auth?: Auth;
  headers?: Record<string, string>;
  json?: unknown;
  /** Sent as is with `content-type: application/json` (bodies JSON.stringify cannot make, such as deep nesting). */
  raw?: string;
  form?: { fields: Record<string, string>; file: { name: string; type: string; bytes: Uint8Array } };
}

export interface ProbeAnswer {
  status: number;
  body: unknown;
  /** The answer's Date header in ms, to measure URL lifetimes against the service's own clock. */
  dateMs?: number;
  /** Set when no HTTP answer came (refused connection, timeout). */
  failure?: string;
}

export interface Target {
  baseUrl: string;
  apiKey: string;
  scopedApiKey?: string;
}

export interface SenderOptions {
  /** Requests a second; 0 or Infinity for no limit. */
  rps: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** Longest Retry-After honoured; a longer one (a daily ceiling) is recorded as the answer. */
  maxRetryAfterSeconds?: number;
  retries?: number;
  timeoutMs?: number;
  /** Called for every 429 seen, so the report can say the service limited the rate. */
  onRateLimited?: (retryAfter: string | null) => void;
}

export type Send = (request: ProbeRequest) => Promise<ProbeAnswer>;

const MAX_TEXT = 4000;
/** A larger answer is not kept: the report holds what it needs to compare, not arbitrary payloads. */
const MAX_JSON = 8 * 1024 * 1024;

export function apiRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1\/media$/, '');
}

export function createSender(target: Target, options: SenderOptions): Send {
  const gap = options.rps > 0 && Number.isFinite(options.rps) ? 1000 / options.rps : 0;
  const root = apiRoot(target.baseUrl);
  let nextAt = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const once = async (request: ProbeRequest): Promise<ProbeAnswer & { retryAfter: string | null }> => {
    const wait = nextAt - options.now();
    if (wait > 0) await options.sleep(wait);
    nextAt = options.now() + gap;
    try {
      const response = await fetch(`${root}${request.path}`, {
        method: request.method,
        headers: headersFor(target, request),
        body: bodyFor(request),
        signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
        redirect: 'manual',
      });
      const text = await response.text();
      const date = Date.parse(response.headers.get('date') ?? '');
      return {
        status: response.status,
        body: parseBody(text),
        dateMs: Number.isFinite(date) ? date : undefined,
        retryAfter: response.headers.get('retry-after'),
      };
    } catch (error) {
      return { status: 0, body: null, failure: (error as Error).message, retryAfter: null };
    }
  };

  const run = async (request: ProbeRequest): Promise<ProbeAnswer> => {
    for (let attempt = 0; ; attempt++) {
      const { retryAfter, ...answer } = await once(request);
      if (answer.status !== 429) return answer;
      options.onRateLimited?.(retryAfter);
      const seconds = Number(retryAfter ?? 'NaN');
      if (attempt >= (options.retries ?? 3) || !(seconds >= 0) || seconds > (options.maxRetryAfterSeconds ?? 120))
        return answer;
      await options.sleep(seconds * 1000);
    }
  };

  return (request) => {
    const result = queue.then(() => run(request));
    queue = result.catch(() => undefined);
    return result;
  };
}

function headersFor(target: Target, request: ProbeRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...(request.headers ?? {}) };
  const auth = request.auth ?? 'key';
  if (auth === 'key') headers.authorization = `Bearer ${target.apiKey}`;
  else if (auth === 'scoped' && target.scopedApiKey) headers.authorization = `Bearer ${target.scopedApiKey}`;
  else if (typeof auth === 'object') headers.authorization = auth.authorization;
  if (request.json !== undefined || request.raw !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

function bodyFor(request: ProbeRequest): string | FormData | undefined {
  if (request.raw !== undefined) return request.raw;
  if (request.json !== undefined) return JSON.stringify(request.json);
  if (request.form === undefined) return undefined;
  const form = new FormData();
  const { file, fields } = request.form;
  form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  if (text.length > MAX_JSON) return `(an answer of ${text.length} characters, not kept)`;
  try {
    return JSON.parse(text);
  } catch {
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}...` : text;
  }
}
