// The front door: which route a request is for, resolved once per request from a table built once, before anything reads it.
import type { Dispatch, DispatchKind, Miss, PathOptions, RouteEntry, RouteKind, ServiceRequest } from './exchange.js';

export type { Dispatch, DispatchKind, Handler, Miss, PathOptions, RouteEntry, RouteKind } from './exchange.js';
import { mentionsPlane } from './plane-path.js';

/** A path's entries by method, and how its other methods are answered. */
interface PathRoutes {
  kind: RouteKind;
  byMethod: Map<string, RouteEntry>;
  allow: string[];
  otherMethods: 'not_allowed' | 'not_found';
}

interface Pattern {
  /** A literal segment, or null where a parameter goes. */
  segments: (string | null)[];
  names: string[];
  routes: PathRoutes;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Paths under this prefix that no route takes are still the public API's answers (its 404s and 405s). */
const PUBLIC_PREFIX = '/v1/media';
const isPublicPath = (path: string) => path === PUBLIC_PREFIX || path.startsWith(`${PUBLIC_PREFIX}/`);

function decodeParam(value: string): string | undefined {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

export interface FrontDoor {
  resolve(request: ServiceRequest): Dispatch;
  /** Every entry, in the order given (the document and plugins' checks read the table). */
  readonly entries: readonly RouteEntry[];
}

/**
 * Built once: a Map from each literal path to its routes, and the few parametrised patterns, tried in the order given.
 * Paths match case-sensitively, as Starlette's do, with one optional trailing slash, as Express's did.
 */
export function frontDoor(entries: readonly RouteEntry[], options: Record<string, PathOptions> = {}): FrontDoor {
  const exact = new Map<string, PathRoutes>();
  const patterns: Pattern[] = [];
  const byPath = new Map<string, PathRoutes>();
  for (const entry of entries) {
    let routes = byPath.get(entry.path);
    if (!routes) {
      const given = options[entry.path] ?? {};
      routes = {
        kind: entry.kind,
        byMethod: new Map(),
        allow: given.allow ?? [],
        otherMethods: given.otherMethods ?? 'not_allowed',
      };
      byPath.set(entry.path, routes);
      const segments = entry.path.split('/');
      if (segments.some((s) => s.startsWith(':')))
        patterns.push({
          segments: segments.map((s) => (s.startsWith(':') ? null : s)),
          names: segments.filter((s) => s.startsWith(':')).map((s) => s.slice(1)),
          routes,
        });
      else exact.set(entry.path, routes);
    }
    if (routes.byMethod.has(entry.method)) throw new Error(`two routes for ${entry.method} ${entry.path}`);
    routes.byMethod.set(entry.method, entry);
    if (!options[entry.path]?.allow) routes.allow.push(entry.method);
  }

  const dispatch = (
    kind: DispatchKind,
    route: RouteEntry | undefined,
    params: Record<string, string>,
    miss: Miss | undefined,
    plane: boolean,
  ): Dispatch => ({
    kind,
    operation: route?.operation ?? (miss?.reason === 'not_allowed' ? 'methodNotAllowed' : 'routeNotFound'),
    mutates: route?.mutates ?? false,
    params,
    route,
    miss,
    plane,
  });

  const choose = (routes: PathRoutes, method: string, params: Record<string, string>, plane: boolean): Dispatch => {
    const route = routes.byMethod.get(method) ?? (method === 'HEAD' ? routes.byMethod.get('GET') : undefined);
    if (route) return dispatch(routes.kind, route, params, undefined, plane);
    const miss: Miss =
      routes.otherMethods === 'not_found' ? { reason: 'not_found' } : { reason: 'not_allowed', allow: routes.allow };
    return dispatch(routes.kind, undefined, params, miss, plane);
  };

  const matchPattern = (path: string, method: string, plane: boolean): Dispatch | undefined => {
    const segments = path.split('/');
    if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
    for (const pattern of patterns) {
      if (pattern.segments.length !== segments.length) continue;
      let matched = true;
      for (let i = 0; i < segments.length && matched; i++) {
        const literal = pattern.segments[i];
        matched = literal === null ? segments[i] !== '' : literal === segments[i];
      }
      if (!matched) continue;
      const params: Record<string, string> = {};
      let name = 0;
      for (let i = 0; i < segments.length; i++) {
        if (pattern.segments[i] !== null) continue;
        const value = decodeParam(segments[i]);
        if (value === undefined)
          return dispatch(pattern.routes.kind, undefined, params, { reason: 'bad_escape', value: segments[i] }, plane);
        params[pattern.names[name++]] = value;
      }
      return choose(pattern.routes, method, params, plane);
    }
    return undefined;
  };

  return {
    entries,
    resolve(request) {
      const { path, method } = request;
      const plane = mentionsPlane(path);
      const routes =
        exact.get(path) ?? (path.length > 1 && path.endsWith('/') ? exact.get(path.slice(0, -1)) : undefined);
      if (routes) return choose(routes, method, NO_PARAMS, plane);
      const found = patterns.length > 0 ? matchPattern(path, method, plane) : undefined;
      if (found) return found;
      return dispatch(isPublicPath(path) ? 'public' : 'unknown', undefined, NO_PARAMS, { reason: 'not_found' }, plane);
    },
  };
}
