// The control client over fetch, given each operation's method and path: connectEmulator's, and the console's in a browser.
import { CodedError } from '../../domain/errors.js';
import { type Control, deriveControl, inlineScenarioBody } from '../client.js';
import type { ClientContext } from './client-bindings.js';
import type { OperationId } from './registry.js';

/** Where an operation is sent: its method and its path in Express form (`:id`). */
export type Routes = Record<OperationId, { method: string; path: string }>;

export interface ConnectOptions {
  /** The emulator's EMULATOR_ADMIN_TOKEN, when it was started with one; sent as `Authorization: Bearer`. */
  adminToken?: string;
  /** Another fetch (a proxy agent, a recording wrapper); default: the global fetch. */
  fetch?: typeof fetch;
  /** A sandbox's id: every operation goes to that sandbox (`/_emulator/sandboxes/{id}/...`). */
  sandbox?: string;
  /** That sandbox's control token (`sbt_...`, from its creation); sent as `Authorization: Bearer`. */
  token?: string;
}

/** A refused control call: the emulator's `error.code` and message, with the HTTP status and the envelope's details. */
export class EmulatorControlError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'EmulatorControlError';
  }
}

/** The request path for these parameters, each encoded as one segment. */
const pathFor = (path: string, params: Record<string, string> = {}) =>
  path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name]));

// The bindings send every query value as a string or number (journal's `since` as ISO 8601).
type Query = Record<string, string | number | undefined>;

function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** X-Forwarded-* headers make the emulator sign output links for `url`, as setBaseUrl does in-process. */
function forwardedHeaders(url: string | undefined): Record<string, string> {
  if (!url) return {};
  const parsed = new URL(url);
  const prefix = parsed.pathname.replace(/\/+$/, '');
  return {
    'X-Forwarded-Proto': parsed.protocol.replace(/:$/, ''),
    'X-Forwarded-Host': parsed.host,
    ...(prefix ? { 'X-Forwarded-Prefix': prefix } : {}),
  };
}

/**
 * The control client of the emulator at `url` (connectEmulator documents it), each operation sent to its route.
 * `scenarioBody` is how a scenario argument becomes the load's body (in Node a file is read on this side).
 */
export function connectOver(
  routes: Routes,
  url: string,
  options: ConnectOptions,
  scenarioBody: ClientContext['scenarioBody'] = inlineScenarioBody,
): Control {
  const base = url.replace(/\/+$/, '');
  const bearer = options.token ?? options.adminToken;
  // A sandbox's operations under its prefix; the lifecycle operations are the instance's, never prefixed.
  const prefixed = (path: string) =>
    options.sandbox === undefined || path.startsWith('/_emulator/sandboxes')
      ? path
      : `/_emulator/sandboxes/${encodeURIComponent(options.sandbox)}${path.slice('/_emulator'.length)}`;
  const send = options.fetch ?? fetch;
  let linkBase: string | undefined;

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', ...forwardedHeaders(linkBase) };
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await send(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new EmulatorControlError(
        'emulator_unreachable',
        `Could not reach the emulator at ${base} (${(error as Error).message}). Is it running, and is the URL right?`,
        0,
      );
    }
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (res.ok) return parsed as T;
    const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
    if (error?.code) {
      const { code, message, ...details } = error as Record<string, unknown>;
      throw new EmulatorControlError(String(code), String(message ?? code), res.status, details);
    }
    throw new EmulatorControlError(
      'unexpected_response',
      `${method} ${path} answered ${res.status} without an error envelope: ${text.slice(0, 200)}`,
      res.status,
    );
  }

  return deriveControl(
    {
      invoke(id, input) {
        const { method, path } = routes[id];
        const { params, query, body } = input as { params?: Record<string, string>; query?: Query; body?: unknown };
        return call(method.toUpperCase(), `${prefixed(pathFor(path, params))}${queryString(query)}`, body);
      },
      scenarioBody,
      setBaseUrl: (next) => {
        linkBase = next;
      },
      sandboxControl: ({ id, token }) => {
        const control = connectOver(routes, url, { fetch: options.fetch, sandbox: id, token }, scenarioBody);
        control.setBaseUrl(linkBase);
        return control;
      },
    },
    // Refused before anything was sent (a scenario file it could not read): status 0, as for an unreachable emulator.
    (error) =>
      error instanceof CodedError ? new EmulatorControlError(error.code, error.message, 0, error.details) : error,
  );
}
